"""Run a plan on the simulator: every launch in order, each through its launch contract.

`execute(plan, given)` builds each launch's kernel (its family's builder, with the resource-refusal
table checked as every engine entry point does), zero-fills the buffers the plan lists before
the launch that needs them, gives the plan's workspace (one zeroed byte buffer, each launch its
slice as the argument `workspace`) and runs rocke.sim with the contract's grid, block and
argument order (`LaunchContract.ordered_args`): a host launching the plan does exactly this.
`given` maps argument names to numpy buffers and caller scalars (e.g. attention's `scale`),
shared by every launch. `build` replaces the builder (a negative control passes a broken one).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from rocke.families import build_family
from rocke.sim import run
from rocke_library.families import defined

from .plan import Plan


def execute(plan: Plan, given: Mapping[str, Any], *, build: Callable[[Any, Any, str], Any] | None = None,
            check_races: bool = True) -> None:
    """Run plan's launches (module docstring); a plan that is not planned runs nothing (dead) or is
    an error (refused)."""
    if plan.status == "refused":
        raise ValueError(f"{plan.kind}: a refused plan has nothing to execute")
    families = {family.name: family for family in defined()}
    slices, total = plan.workspace
    workspace = np.zeros(total, np.uint8)
    by_launch = {int(piece.name.split(".")[0]): piece for piece in slices}
    zero = plan.zero_init
    for i, launch in enumerate(plan.launches):
        family = families[launch.family]
        assert family.spec is not None
        spec = family.spec.from_kv(launch.spec)
        kernel = build_family(family, spec, plan.arch) if build is None else build(family, spec, plan.arch)
        args = dict(given)
        for index, name in zero:
            if index == i:
                args[name][...] = 0
        if i in by_launch:
            piece = by_launch[i]
            args["workspace"] = workspace[piece.offset:piece.offset + piece.bytes]
        contract = launch.contract
        args = {name: value for name, value in args.items() if name in {arg.name for arg in contract.args}}
        run(kernel, arch=plan.arch, grid=contract.grid, block=contract.block, args=contract.ordered_args(args),
            check_races=check_races)
