"""gemm on the simulator against its numpy reference: one problem, random inputs, a Comparison.

Shared by the numeric tests and `rocke sim`. Tolerances (|got - want| <= atol + rtol * |want|; inputs
uniform in [-1, 1], so |C| <= K + 1): f32 output: the f32 accumulation of K exact products rounds to
~K f32 ulps of K, well under 1e-4 absolute; f16 / bf16 output: that plus one or two output ulps.
"""

from __future__ import annotations

import numpy as np

from rocke.families.launcher import run
from rocke.sim import Comparison, compare

from .builder import build
from .contract import launch
from .reference import NUMPY_DTYPES, reference, to_memory
from .spec import GemmSpec

TOL = {"f32": (1e-5, 1e-4), "f16": (2e-3, 1e-3), "bf16": (1.6e-2, 8e-3)}  # (rtol, atol) by c_dtype
ALPHA = 0.75


def edge_problem(spec: GemmSpec) -> tuple[int, int, int]:
    """A partial second tile along M and N, and K = two full tiles plus a partial third."""
    return spec.bm + 5, spec.bn + 3, 2 * spec.bk + 3


def run_case(spec: GemmSpec, arch: str, m: int, n: int, k: int, fault: str = "",
             seed: int | None = None, mma_order: str = "exact") -> Comparison:
    """mma_order: how the simulator sums each MMA's products (rocke.sim.MMA_ORDERS); the
    tolerances hold in all of them, which leaves room for the hardware's summation order."""
    contract = launch(spec, {"m": m, "n": n, "k": k})
    rng = np.random.default_rng(m * 10007 + n * 101 + k if seed is None else seed)
    in_t, out_t = NUMPY_DTYPES[spec.a_dtype], NUMPY_DTYPES[spec.c_dtype]
    a = rng.uniform(-1.0, 1.0, (m, k)).astype(in_t)
    b = rng.uniform(-1.0, 1.0, (k, n)).astype(in_t)
    bias = rng.uniform(-1.0, 1.0, n).astype(out_t)
    c = np.zeros(m * n, out_t)
    given = {"a": to_memory(a, spec.a_layout), "b": to_memory(b, spec.b_layout), "c": c, "alpha": ALPHA}
    if spec.bias:
        given["bias"] = bias
    kernel = build(spec, arch, _fault=fault)
    run(kernel, arch=arch, grid=contract.grid, block=contract.block, args=contract.ordered_args(given),
        check_races=True, mma_order=mma_order)
    expected = reference(spec, {"a": a, "b": b, "bias": bias, "alpha": ALPHA})["c"]
    rtol, atol = TOL[spec.c_dtype]
    return compare(c.reshape(m, n), expected, rtol=rtol, atol=atol, name=f"gemm {spec.op_id}")


def numerics(spec: GemmSpec, arch: str, seed: int) -> Comparison:
    """The `rocke sim` entry: the edge problem on random inputs drawn from `seed`."""
    return run_case(spec, arch, *edge_problem(spec), seed=seed)
