"""img2col on the simulator against its numpy reference: one problem, random inputs, a Comparison.

Shared by the numeric tests and `rocke sim`. img2col only moves data, so the comparison is exact
(rtol = atol = 0): every column element must be its input element or, in the padding, zero.
"""

from __future__ import annotations

from collections.abc import Mapping

import ml_dtypes
import numpy as np

from rocke.families.launcher import run
from rocke.sim import Comparison, compare

from .builder import build
from .contract import launch
from .reference import reference
from .spec import Img2colSpec

NUMPY_DTYPES = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16), "f32": np.dtype(np.float32)}
CANARY = 1000.0  # col starts as this; inputs lie in [-4, 4], so a missed store shows


def edge_problem(spec: Img2colSpec) -> dict[str, int]:
    """Two images, odd sizes (the last workgroup is partial), two groups of 3 vectors each."""
    h = max(5, spec.dil_h * (spec.filter_y - 1) + 2)
    w = max(6, spec.dil_w * (spec.filter_x - 1) + 3)
    return {"n": 2, "h": h, "w": w, "c": 6 * spec.vec, "g": 2}


def run_case(spec: Img2colSpec, arch: str, problem: Mapping[str, int], fault: str = "",
             seed: int | None = None) -> Comparison:
    contract = launch(spec, problem)
    n, h, w, c = problem["n"], problem["h"], problem["w"], problem["c"]
    rng = np.random.default_rng(n * 1009 + h * 101 + w * 11 + c if seed is None else seed)
    dtype = NUMPY_DTYPES[spec.dtype]
    x = rng.uniform(-4.0, 4.0, (n, h, w, c)).astype(dtype)
    col = np.full(contract.arg("col").bytes // dtype.itemsize, CANARY, dtype)
    kernel = build(spec, arch, _fault=fault)
    run(kernel, arch=arch, grid=contract.grid, block=contract.block,
        args=contract.ordered_args({"input": x.reshape(-1), "col": col}), check_races=False)
    expected = reference(spec, {"input": x, "g": problem["g"]})["col"]
    return compare(col.reshape(expected.shape), expected, rtol=0.0, atol=0.0, name=f"img2col {spec.dtype}")


def numerics(spec: Img2colSpec, arch: str, seed: int) -> Comparison:
    """The `rocke sim` entry: the edge problem on random inputs drawn from `seed`."""
    return run_case(spec, arch, edge_problem(spec), seed=seed)

