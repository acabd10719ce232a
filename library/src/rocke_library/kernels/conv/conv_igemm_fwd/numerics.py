"""conv_igemm_fwd on the simulator against its float64 reference: one problem, random inputs, a
Comparison. Shared by the numeric tests and `rocke sim`.

Tolerances (|got - want| <= atol + rtol * |want|; inputs and weights uniform in [-1, 1]): the f32
accumulation of at most a few hundred exact products of f16/bf16 values is far below one output
ulp, so the bound is the output rounding: f16 rtol 2e-3 (4 ulps of 2^-11), atol 1e-3; bf16 rtol
1.6e-2 (4 ulps of 2^-8), atol 8e-3.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from rocke.families.launcher import run
from rocke.sim import Comparison, compare

from ..geometry import output_hw
from .builder import build
from .contract import launch
from .reference import NUMPY_DTYPES, reference
from .spec import ConvIgemmFwdSpec

TOL = {"f16": (2e-3, 1e-3), "bf16": (1.6e-2, 8e-3)}  # (rtol, atol)
CANARY = 1000.0  # the output starts as this; |y| stays far below it at these inputs


def edge_problem(spec: ConvIgemmFwdSpec) -> dict[str, int]:
    """Tails in every GEMM dimension, two groups: N*Ho*Wo not a multiple of bm (and over one tile
    when bm is small), K/g = bn + 3 output channels per group (two N tiles, the last partial), and
    C/g = 3 * vec channels per group, so Kdim = taps * 3 * vec is rarely a multiple of bk."""
    h = max(5, spec.dil_h * (spec.filter_y - 1) + 2)
    w = max(6, spec.dil_w * (spec.filter_x - 1) + 3)
    ho, wo = output_hw(spec, h, w)
    if (ho * wo) % spec.bm == 0:
        w += 1
    return {"n": 1, "h": h, "w": w, "c": 2 * 3 * spec.vec, "k": 2 * (spec.bn + 3), "g": 2}


def inputs(spec: ConvIgemmFwdSpec, problem: Mapping[str, int], seed: int | None = None) -> dict[str, np.ndarray]:
    """Random input (N x H x W x C), weight (K x Y x X x C/g) and bias (K) in dtype, uniform in [-1, 1]."""
    n, h, w, c, k, g = (problem[key] for key in ("n", "h", "w", "c", "k", "g"))
    rng = np.random.default_rng(n * 1009 + h * 101 + w * 11 + c * 7 + k if seed is None else seed)
    dtype = NUMPY_DTYPES[spec.dtype]
    x = rng.uniform(-1.0, 1.0, (n, h, w, c)).astype(dtype)
    wt = rng.uniform(-1.0, 1.0, (k, spec.filter_y, spec.filter_x, c // g)).astype(dtype)
    bias = rng.uniform(-1.0, 1.0, k).astype(dtype)
    return {"input": x, "weight": wt, "bias": bias}


def simulate(spec: ConvIgemmFwdSpec, arch: str, problem: Mapping[str, int], given: Mapping[str, np.ndarray],
             fault: str = "", mma_order: str = "exact") -> np.ndarray:
    """The kernel's output (N x Ho x Wo x K) on the simulator for the given input, weight and bias."""
    contract = launch(spec, problem)
    dtype = NUMPY_DTYPES[spec.dtype]
    y = np.full(contract.arg("output").bytes // dtype.itemsize, CANARY, dtype)
    buffers = {"input": given["input"].reshape(-1), "weight": given["weight"].reshape(-1), "output": y}
    if spec.bias:
        buffers["bias"] = given["bias"]
    kernel = build(spec, arch, _fault=fault)
    run(kernel, arch=arch, grid=contract.grid, block=contract.block, args=contract.ordered_args(buffers),
        check_races=False, mma_order=mma_order)
    ho, wo = output_hw(spec, problem["h"], problem["w"])
    return y.reshape(problem["n"], ho, wo, problem["k"])


def run_case(spec: ConvIgemmFwdSpec, arch: str, problem: Mapping[str, int], fault: str = "",
             seed: int | None = None, mma_order: str = "exact") -> Comparison:
    """Simulate spec's kernel on arch for problem (random inputs from seed) against the reference;
    mma_order: how the simulator sums each MMA's products (rocke.sim.MMA_ORDERS)."""
    given = inputs(spec, problem, seed)
    got = simulate(spec, arch, problem, given, fault, mma_order)
    expected = reference(spec, {**given, "g": problem["g"]})["output"]
    rtol, atol = TOL[spec.dtype]
    return compare(got, expected, rtol=rtol, atol=atol, name=f"conv_igemm_fwd {spec.dtype}")


def numerics(spec: ConvIgemmFwdSpec, arch: str, seed: int) -> Comparison:
    """The `rocke sim` entry: the edge problem on random inputs drawn from `seed`."""
    return run_case(spec, arch, edge_problem(spec), seed=seed)
