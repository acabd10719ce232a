"""Library's planners, registered under the entry point ``rocke.planners`` (`rocke plan` finds them
through rocke.families.planners, as `rocke` finds families): one per problem kind, the Python
engine `plan(text, arch) -> (JSON, text, status)` and its C++ twin rocke_library_engine.plan;
kinds in simulate.SIMULATED also run a planned problem on the simulator (`rocke sim KIND --problem`);
`launch_sizes` sizes one family's launch contract for a problem (`rocke emit --problem`)."""

from __future__ import annotations

from functools import partial

from rocke.families.planners import Planner

from .dispatch import HOOKS, KINDS, launch_sizes, plan
from .simulate import SIMULATED


def _plan(kind: str, text: str, arch: str) -> tuple[str, str, str]:
    result = plan(kind, text, arch)
    return result.to_json(), result.to_text(), result.status


def provide() -> list[Planner]:
    return [Planner(kind, "rocke-library", partial(_plan, kind), "rocke_library_engine",
                    tuple(family.name for family, _ in HOOKS[kind]), SIMULATED.get(kind), partial(launch_sizes, kind))
            for kind in KINDS]
