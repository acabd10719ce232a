"""Dispatch reason codes: why a candidate was rejected, each with one fixed text.

The table is data with one source, `reasons.json` beside this module (format `rocke.reasons/1`);
its order is the order reasons are listed in, per candidate. The C++ twin reads the generated
library/cpp/src/dispatch/reasons_json.cpp (library/tools/gen_cpp_tables.py), checked for
freshness by a test.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

REASONS_FILE = "reasons.json"
REASONS_FORMAT = "rocke.reasons/1"


@dataclass(frozen=True)
class Reason:
    code: str
    text: str


def parse_reasons(text: str) -> tuple[Reason, ...]:
    """The reasons of a reasons.json text, in table order; ValueError on a malformed table."""
    data: Any = json.loads(text)
    if not isinstance(data, dict) or data.get("format") != REASONS_FORMAT:
        raise ValueError(f"{REASONS_FILE}: expected format '{REASONS_FORMAT}'")
    reasons = tuple(Reason(entry["code"], entry["text"]) for entry in data["reasons"])
    codes = [reason.code for reason in reasons]
    if len(set(codes)) != len(codes):
        raise ValueError(f"{REASONS_FILE}: a code is listed twice")
    return reasons


REASONS: tuple[Reason, ...] = parse_reasons(files(__package__).joinpath(REASONS_FILE).read_text(encoding="ascii"))
REASON_CODES: tuple[str, ...] = tuple(reason.code for reason in REASONS)
_TEXT = {reason.code: reason.text for reason in REASONS}


def reason_text(code: str) -> str:
    """The fixed text of a reason code; KeyError for an unknown code."""
    if code not in _TEXT:
        raise KeyError(f"unknown dispatch reason code '{code}'; known: {', '.join(REASON_CODES)}")
    return _TEXT[code]


def ordered(codes: Iterable[str]) -> tuple[str, ...]:
    """codes once each, in table order (an unknown code is a KeyError)."""
    given = set(codes)
    for code in given:
        reason_text(code)
    return tuple(code for code in REASON_CODES if code in given)
