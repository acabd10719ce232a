"""conv_direct_fwd on the simulator against its numpy reference: one problem, random inputs, a
Comparison. Shared by the numeric tests and `rocke sim`.

Tolerances (|got - want| <= atol + rtol * |want|; inputs and weights uniform in [-1, 1], so
|y| <= taps * C/g + 1): f32 output: the f32 accumulation of at most a few hundred exact products
stays well under 1e-4 absolute; f16 / bf16 output: that plus one or two output ulps.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from rocke.families.launcher import run
from rocke.sim import Comparison, compare

from .builder import build
from .contract import launch
from .reference import NUMPY_DTYPES, reference
from .spec import ConvDirectFwdSpec

TOL = {"f32": (1e-5, 1e-4), "f16": (2e-3, 1e-3), "bf16": (1.6e-2, 8e-3)}  # (rtol, atol)
CANARY = 1000.0  # the output starts as this; |y| stays far below it at these inputs


def edge_problem(spec: ConvDirectFwdSpec) -> dict[str, int]:
    """A partial last pixel tile and a partial last channel tile: two images of odd sizes, and a
    group with tile_k + 3 output channels (depthwise: C = tile_k + vec)."""
    h = max(5, spec.dil_h * (spec.filter_y - 1) + 2)
    w = max(6, spec.dil_w * (spec.filter_x - 1) + 3)
    if spec.depthwise:
        return {"n": 2, "h": h, "w": w, "c": spec.tile_k + spec.vec}
    return {"n": 2, "h": h, "w": w, "c": 4 * spec.vec, "k": 2 * (spec.tile_k + 3), "g": 2}


def run_case(spec: ConvDirectFwdSpec, arch: str, problem: Mapping[str, int], fault: str = "",
             seed: int | None = None) -> Comparison:
    contract = launch(spec, problem)
    n, h, w, c = problem["n"], problem["h"], problem["w"], problem["c"]
    k, g = (c, c) if spec.depthwise else (problem["k"], problem["g"])
    rng = np.random.default_rng(n * 1009 + h * 101 + w * 11 + c * 7 + k if seed is None else seed)
    dtype = NUMPY_DTYPES[spec.dtype]
    x = rng.uniform(-1.0, 1.0, (n, h, w, c)).astype(dtype)
    wt = rng.uniform(-1.0, 1.0, (k, spec.filter_y, spec.filter_x, c // g)).astype(dtype)
    bias = rng.uniform(-1.0, 1.0, k).astype(dtype)
    y = np.full(contract.arg("output").bytes // dtype.itemsize, CANARY, dtype)
    given = {"input": x.reshape(-1), "weight": wt.reshape(-1), "output": y}
    if spec.bias:
        given["bias"] = bias
    kernel = build(spec, arch, _fault=fault)
    run(kernel, arch=arch, grid=contract.grid, block=contract.block, args=contract.ordered_args(given),
        check_races=False)
    expected = reference(spec, {"input": x, "weight": wt, "bias": bias, "g": g})["output"]
    rtol, atol = TOL[spec.dtype]
    return compare(y.reshape(expected.shape), expected, rtol=rtol, atol=atol, name=f"conv_direct_fwd {spec.dtype}")


def numerics(spec: ConvDirectFwdSpec, arch: str, seed: int) -> Comparison:
    """The `rocke sim` entry: the edge problem on random inputs drawn from `seed`."""
    return run_case(spec, arch, edge_problem(spec), seed=seed)
