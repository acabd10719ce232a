"""Planner discovery through the ``rocke.planners`` entry-point group (as families are found
through ``rocke.families``): each installed package may register one provider returning its
planners. A planner maps a problem of one kind (e.g. ``conv_fwd``) on an arch to a plan; platform's
`rocke plan` iterates the providers and never names a library module.

A planner's ``plan(text, arch)`` returns ``(plan JSON, plan text, status)`` (status ``planned``,
``dead`` or ``refused``) and raises ValueError for a malformed problem; ``cpp_engine`` names the
extension module whose ``plan(kind, text, arch)`` is its C++ twin (same tuple, same errors).
A planner may also ``simulate(text, arch, seed)``: run the planned launches on the simulator and
compare with the kind's reference (a rocke.sim.Comparison; `rocke sim KIND --problem`), and give
``launch_sizes(text, family, spec, arch) -> (sizes, problem kv)``: the sizes the launch contract of
one of its families takes for a problem of the kind (keys the problem lacks taken from the spec's
fields of the same name), with the problem's canonical text (`rocke emit --problem`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rocke.sim import Comparison

PLANNER_GROUP = "rocke.planners"
PLAN_STATUSES = ("planned", "dead", "refused")


@dataclass(frozen=True)
class Planner:
    kind: str
    owner: str
    plan: Callable[[str, str], tuple[str, str, str]]
    cpp_engine: str = ""
    families: tuple[str, ...] = ()  # the families whose candidates serve the kind, in dispatch order
    simulate: Callable[[str, str, int], Comparison] | None = None
    launch_sizes: Callable[[str, str, str, str], tuple[dict[str, int], str]] | None = None


def discover_planners() -> dict[str, Planner]:
    """Every planner of every installed provider by kind; a kind registered twice is an error."""
    found: dict[str, Planner] = {}
    for ep in sorted(entry_points(group=PLANNER_GROUP), key=lambda ep: ep.name):
        for planner in ep.load()():
            if planner.kind in found:
                raise ValueError(f"problem kind '{planner.kind}' is registered by both '{found[planner.kind].owner}' "
                                 f"and '{planner.owner}' (provider '{ep.name}')")
            found[planner.kind] = planner
    return dict(sorted(found.items()))


def get_planner(kind: str, planners: dict[str, Planner] | None = None) -> Planner:
    """The planner of a problem kind, or of the one kind a family name serves; KeyError otherwise."""
    planners = discover_planners() if planners is None else planners
    if kind in planners:
        return planners[kind]
    serving = [p for p in planners.values() if kind in p.families]
    if len(serving) == 1:
        return serving[0]
    raise KeyError(f"unknown problem kind '{kind}'; known: {', '.join(planners) or 'none (no planner installed)'}")
