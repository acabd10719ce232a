"""conv_igemm_dgrad on the simulator against its float64 reference: one problem, random inputs, a
Comparison. Shared by the numeric tests and `rocke sim`.

Tolerances (|got - want| <= atol + rtol * |want|; dy and w uniform in [-1, 1], so |dx| <= taps *
K/G): the f32 accumulation of at most a few hundred exact products stays far below 1e-4 absolute, so
the output rounding dominates: f16 rtol 2e-3 (two ulps) + atol 1e-3, bf16 rtol 1.6e-2 (two ulps) +
atol 8e-3. Input pixels that no tap reaches (stride > 1) must hold exactly 0: the comparison fails
on any other value there, whatever the tolerance.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from rocke.families.launcher import run
from rocke.sim import Comparison, compare

from ..geometry import output_hw
from .builder import build
from .contract import launch
from .reference import NUMPY_DTYPES, dgrad_f64, reference
from .spec import ConvIgemmDgradSpec

TOL = {"f16": (2e-3, 1e-3), "bf16": (1.6e-2, 8e-3)}  # (rtol, atol)
CANARY = 1000.0  # dx starts as this; |dx| stays far below it at these inputs


def edge_problem(spec: ConvIgemmDgradSpec) -> dict[str, int]:
    """Tails in every GEMM dimension, two groups: N*H*W input pixels (two odd-sized images) not a
    multiple of bm, C/G = bn + vec channels (a partial second tile) and Y*X*K/G not a multiple of bk."""
    h = max(5, spec.dil_h * (spec.filter_y - 1) + 2 - 2 * spec.pad_h)
    w = max(6, spec.dil_w * (spec.filter_x - 1) + 3 - 2 * spec.pad_w)
    kg = spec.vec
    while (spec.taps * kg) % spec.bk == 0:
        kg += spec.vec
    return {"n": 2, "h": h, "w": w, "c": 2 * (spec.bn + spec.vec), "k": 2 * kg, "g": 2}


def reached(spec: ConvIgemmDgradSpec, problem: Mapping[str, int]) -> np.ndarray:
    """N x H x W booleans: the input pixels some tap of some output pixel reads."""
    h, w = problem["h"], problem["w"]
    ho, wo = output_hw(spec, h, w)
    ones_dy = np.ones((problem["n"], ho, wo, 1))
    ones_w = np.ones((1, spec.filter_y, spec.filter_x, 1))
    return dgrad_f64(spec, ones_dy, ones_w, h, w, 1)[..., 0] > 0


def run_case(spec: ConvIgemmDgradSpec, arch: str, problem: Mapping[str, int], fault: str = "",
             seed: int | None = None) -> Comparison:
    contract = launch(spec, problem)
    n, h, w, c, k, g = (problem[key] for key in ("n", "h", "w", "c", "k", "g"))
    ho, wo = output_hw(spec, h, w)
    rng = np.random.default_rng(n * 1009 + h * 101 + w * 11 + c * 7 + k if seed is None else seed)
    dtype = NUMPY_DTYPES[spec.dtype]
    dy = rng.uniform(-1.0, 1.0, (n, ho, wo, k)).astype(dtype)
    wt = rng.uniform(-1.0, 1.0, (k, spec.filter_y, spec.filter_x, c // g)).astype(dtype)
    dx = np.full(n * h * w * c, CANARY, dtype)
    given = {"dy": dy.reshape(-1), "weight": wt.reshape(-1), "dx": dx}
    kernel = build(spec, arch, _fault=fault)
    run(kernel, arch=arch, grid=contract.grid, block=contract.block, args=contract.ordered_args(given),
        check_races=False)
    expected = reference(spec, {"dy": dy, "weight": wt, "h": h, "w": w, "g": g})["dx"]
    got = dx.reshape(expected.shape)
    rtol, atol = TOL[spec.dtype]
    result = compare(got, expected, rtol=rtol, atol=atol, name=f"conv_igemm_dgrad {spec.dtype}")
    unreached = ~reached(spec, problem)
    if result.ok and unreached.any():
        return compare(got[unreached], np.zeros_like(got[unreached]), rtol=0.0, atol=0.0,
                       name=f"conv_igemm_dgrad {spec.dtype} at the pixels no tap reaches")
    return result


def numerics(spec: ConvIgemmDgradSpec, arch: str, seed: int) -> Comparison:
    """The `rocke sim` entry: the edge problem on random inputs drawn from `seed`."""
    return run_case(spec, arch, edge_problem(spec), seed=seed)
