"""elementwise on the simulator against its numpy reference: one problem, random inputs, a Comparison.

Shared by the numeric tests and `rocke sim`. Tolerances (|got - want| <= atol + rtol * |want|): the
reference is exact math rounded once to the storage type, so f16/bf16 allow one storage ulp; f32 allows
the hardware's approximate exp2/rcp (a few ulps) in silu and gelu_tanh.
"""

from __future__ import annotations

import numpy as np

from rocke.families.launcher import run
from rocke.sim import Comparison, compare

from .builder import build
from .contract import launch
from .reference import NUMPY_DTYPES, reference
from .spec import ElementwiseSpec

TOL = {"f32": (1e-5, 1e-6), "f16": (1e-3, 1e-4), "bf16": (8e-3, 1e-3)}  # (rtol, atol)
CANARY = 7.0  # out starts as this; the reference never produces it at these inputs


def edge_problem(spec: ElementwiseSpec) -> dict[str, int]:
    """Two full workgroups, three full vectors and one element: a partial vector and a nearly empty
    last workgroup."""
    return {"n": 2 * spec.block * spec.vec + 3 * spec.vec + 1}


def run_case(spec: ElementwiseSpec, arch: str, n: int, fault: str = "", seed: int | None = None,
             approx_rounding: str = "nearest") -> Comparison:
    """approx_rounding: the simulator's rounding of exp2 / rcp (rocke.sim.APPROX_ROUNDINGS); the
    tolerances hold in all three, so they cover the hardware's 1-ulp v_exp_f32 / v_rcp_f32."""
    contract = launch(spec, {"n": n})
    rng = np.random.default_rng(n if seed is None else seed)
    dtype = NUMPY_DTYPES[spec.dtype]
    inputs = {name: rng.uniform(-6.0, 6.0, n).astype(dtype) for name in spec.inputs}
    out = np.full(n, CANARY, dtype)
    kernel = build(spec, arch, _fault=fault)
    run(kernel, arch=arch, grid=contract.grid, block=contract.block, args=contract.ordered_args({**inputs, "out": out}),
        approx_rounding=approx_rounding)
    rtol, atol = TOL[spec.dtype]
    return compare(out, reference(spec, inputs)["out"], rtol=rtol, atol=atol, name=f"{spec.op} {spec.dtype}")


def numerics(spec: ElementwiseSpec, arch: str, seed: int) -> Comparison:
    """The `rocke sim` entry: the edge problem on random inputs drawn from `seed`."""
    return run_case(spec, arch, edge_problem(spec)["n"], seed=seed)
