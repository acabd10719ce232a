"""conv_igemm_wgrad on the simulator against its float64 reference: one problem, random inputs, a
Comparison. Shared by the numeric tests and `rocke sim`.

A spec runs as its whole launch sequence: split_k = 1, the main kernel storing dw; split_k > 1, a
zero-filled f32 workspace, the main kernel adding into it, then the convert kernel (convert=1, the
other fields equal) writing dw. `rocke sim` of a convert spec runs the same pair.

Tolerances (|got - want| <= atol + rtol * |want|; x and dy uniform in [-1, 1], so |dw| <= N*Ho*Wo):
the f32 accumulation (in any order of the split-K atomics) of a few hundred exact products stays
far below 1e-4 absolute, so the output rounding dominates: f16 rtol 2e-3 (two ulps) + atol 1e-3,
bf16 rtol 1.6e-2 (two ulps) + atol 8e-3.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import numpy as np

from rocke.families.launcher import run
from rocke.sim import Comparison, compare

from ..geometry import output_hw
from .builder import build
from .contract import launch
from .reference import NUMPY_DTYPES, reference
from .spec import ConvIgemmWgradSpec

TOL = {"f16": (2e-3, 1e-3), "bf16": (1.6e-2, 8e-3)}  # (rtol, atol)
CANARY = 1000.0  # dw starts as this; |dw| stays far below it at these inputs


def edge_problem(spec: ConvIgemmWgradSpec) -> dict[str, int]:
    """Tails in every GEMM dimension, two groups: K/G = bm + vec output channels (a partial second
    tile), Y*X*C/G not a multiple of bn, and N*Ho*Wo output pixels (two images) not a multiple of bk,
    enough of them that every one of the split_k shares gets K tiles (the last one partly)."""
    h = max(5, spec.dil_h * (spec.filter_y - 1) + 2 - 2 * spec.pad_h)
    w = max(6, spec.dil_w * (spec.filter_x - 1) + 3 - 2 * spec.pad_w)
    while True:
        ho, wo = output_hw(spec, h, w)
        pixels = 2 * ho * wo
        tiles = -(-pixels // spec.bk)
        share = -(-tiles // spec.split_k)
        if pixels % spec.bk != 0 and (spec.split_k - 1) * share < tiles:
            break
        h, w = h + 1, w + 1
    cg = spec.vec
    while (spec.taps * cg) % spec.bn == 0:
        cg += spec.vec
    return {"n": 2, "h": h, "w": w, "c": 2 * cg, "k": 2 * (spec.bm + spec.vec), "g": 2}


def main_spec(spec: ConvIgemmWgradSpec) -> ConvIgemmWgradSpec:
    """The main kernel of spec's launch sequence."""
    return dataclasses.replace(spec, convert=False)


def run_case(spec: ConvIgemmWgradSpec, arch: str, problem: Mapping[str, int], fault: str = "",
             seed: int | None = None) -> Comparison:
    """fault breaks the main kernel (a builder _fault); "skip_convert" leaves out the convert launch."""
    main = main_spec(spec)
    contract = launch(main, problem)
    n, h, w, c, k, g = (problem[key] for key in ("n", "h", "w", "c", "k", "g"))
    ho, wo = output_hw(spec, h, w)
    rng = np.random.default_rng(n * 1009 + h * 101 + w * 11 + c * 7 + k if seed is None else seed)
    dtype = NUMPY_DTYPES[spec.dtype]
    x = rng.uniform(-1.0, 1.0, (n, h, w, c)).astype(dtype)
    dy = rng.uniform(-1.0, 1.0, (n, ho, wo, k)).astype(dtype)
    elements = k * spec.taps * (c // g)
    dw = np.full(elements, CANARY, dtype)
    given = {"input": x.reshape(-1), "dy": dy.reshape(-1)}
    kernel_fault = "" if fault == "skip_convert" else fault
    if main.atomic:
        assert contract.zero_init == ("workspace",)
        workspace = np.zeros(elements, np.float32)
        given["workspace"] = workspace
    else:
        given["dw"] = dw
    run(build(main, arch, _fault=kernel_fault), arch=arch, grid=contract.grid, block=contract.block,
        args=contract.ordered_args(given), check_races=False)
    if main.atomic and fault != "skip_convert":
        convert = dataclasses.replace(spec, convert=True)
        second = launch(convert, problem)
        run(build(convert, arch), arch=arch, grid=second.grid, block=second.block,
            args=second.ordered_args({"workspace": workspace, "dw": dw}), check_races=True)
    expected = reference(spec, {"input": x, "dy": dy, "g": g})["dw"]
    rtol, atol = TOL[spec.dtype]
    return compare(dw.reshape(expected.shape), expected, rtol=rtol, atol=atol,
                   name=f"conv_igemm_wgrad {spec.dtype} split_k={spec.split_k}")


def numerics(spec: ConvIgemmWgradSpec, arch: str, seed: int) -> Comparison:
    """The `rocke sim` entry: the edge problem on random inputs drawn from `seed`."""
    return run_case(spec, arch, edge_problem(spec), seed=seed)
