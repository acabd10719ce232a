"""Run a plan on a device: every launch in order, each through its launch contract.

`execute(plan, given)` builds each launch's kernel (its family's builder, with the resource-refusal
table checked as every engine entry point does), zero-fills the buffers the plan lists before
the launch that needs them, gives the plan's workspace (one byte buffer, each launch its slice as
the argument `workspace`, viewed as the argument's element type; in a launch set's shared layout,
each slice binds the arguments of its name) and launches the kernel with the contract's grid,
block and argument order (`LaunchContract.ordered_args`): a host launching the plan does exactly
this. `given` maps argument names to numpy buffers and caller scalars (e.g.
attention's `scale`), shared by every launch; results land in the given arrays. `build` replaces
the builder (a negative control passes a broken one).

The device (rocke.runtime.device) is where this runs: the simulator by default (SimDevice, with
`check_races`), or a GPU (RuntimeDevice on a backend); the steps above are written once for both.
The workspace starts as 0xFF bytes (NaN in f32), as a fresh allocation holds anything: only the
plan's zero_init makes it zero, so a plan that forgets one fails its numeric check.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from rocke.families import build_family
from rocke.runtime.device import Device, SimDevice
from rocke_library.families import defined

from .plan import Plan

ELEMENT_TYPES = {"ptr<f32, global>": "float32", "ptr<f16, global>": "float16", "ptr<i32, global>": "int32"}


def execute(plan: Plan, given: Mapping[str, Any], *, build: Callable[[Any, Any, str], Any] | None = None,
            check_races: bool = True, device: Device | None = None) -> None:
    """Run plan's launches on `device` (default: the simulator; module docstring); a plan that is
    not planned runs nothing (dead) or is an error (refused)."""
    if plan.status == "refused":
        raise ValueError(f"{plan.kind}: a refused plan has nothing to execute")
    device = device if device is not None else SimDevice(check_races=check_races)
    families = {family.name: family for family in defined()}
    slices, total = plan.workspace
    shared = {piece.name: piece for piece in slices} if plan.shared is not None else {}
    zero = plan.zero_init
    try:
        bound = {name: device.buffer(value) if isinstance(value, np.ndarray) else value
                 for name, value in given.items()}
        workspace = device.workspace(total) if plan.launches else None
        for i, launch in enumerate(plan.launches):
            family = families[launch.family]
            assert family.spec is not None
            spec = family.spec.from_kv(launch.spec)
            kernel = build_family(family, spec, plan.arch) if build is None else build(family, spec, plan.arch)
            args = dict(bound)
            contract = launch.contract
            piece = plan.workspace_slice(i)
            if piece is not None:
                element = np.dtype(ELEMENT_TYPES[contract.arg("workspace").type])
                args["workspace"] = device.view(workspace, piece.offset, piece.bytes, element)
            for arg in contract.args:  # a shared layout's slices bind the arguments of their names
                if arg.name in shared:
                    piece, element = shared[arg.name], np.dtype(ELEMENT_TYPES[arg.type])
                    args[arg.name] = device.view(workspace, piece.offset, piece.bytes, element)
            for index, name in zero:
                if index == i:
                    device.zero(args[name])
            args = {name: value for name, value in args.items() if name in {arg.name for arg in contract.args}}
            device.launch(kernel, arch=plan.arch, grid=contract.grid, block=contract.block,
                          args=contract.ordered_args(args))
    except BaseException:
        device.release()
        raise
    device.finish()
