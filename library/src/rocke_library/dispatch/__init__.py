"""rocke_library.dispatch: problems, dispatch to plans, reason codes (library/docs/dispatch.md)."""

from __future__ import annotations

from .dispatch import HOOKS, KINDS, dispatch, parse_problem, plan
from .plan import PLAN_FORMAT, Plan
from .reasons import REASON_CODES, reason_text
from .serve import ServedLaunch, serve, serve_problem, served_text

__all__ = ["HOOKS", "KINDS", "PLAN_FORMAT", "REASON_CODES", "Plan", "ServedLaunch", "dispatch", "parse_problem",
           "plan", "reason_text", "serve", "serve_problem", "served_text"]
