"""Host-time plan of a gemm kernel on one arch: every derived number, and the arch refusals.

LDS holds A as [bm][bk + lds_pad] and B as [bn][bk + lds_pad] (k contiguous for both, so MMA
fragments are vector loads), in 1 or 2 stages. Global -> LDS copies read vectors along each
operand's contiguous dimension: k for row-major A and column-major B (vector LDS stores), m or n
otherwise (the copy transposes: one LDS store per element).
"""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import ArchTarget, MmaOp
from rocke.helpers import FragmentPlan, PaddedTile, SplitFormula, TileSplit, elem_bytes, plan_fragment, split_formula
from rocke.helpers import split_tile as split_tile_evenly

from .spec import GemmSpec

MAX_LDS_ALLOC_ELEMS = 65536  # mem.lds_alloc count limit


@dataclass(frozen=True)
class OperandPlan:
    """Staging of one input operand (A or B) through LDS."""

    name: str  # "a" or "b"
    k_contiguous: bool  # the global layout puts consecutive k next to each other
    tile: PaddedTile  # [outer = bm or bn][bk + pad]
    split: TileSplit  # the copy: k-contiguous: bm lines of bk; else bk lines of bm
    frag: FragmentPlan


@dataclass(frozen=True)
class GemmPlan:
    op: MmaOp
    threads: int
    rep_m: int  # atoms per wave along m
    rep_n: int
    wave_tile_m: int  # bm / wm
    wave_tile_n: int
    stages: int
    a: OperandPlan
    b: OperandPlan
    c_row: SplitFormula
    c_col: SplitFormula
    lds_bytes: int


def _operand(spec: GemmSpec, name: str, outer: int, k_contiguous: bool, stages: int, threads: int,
             outer_is_row: bool) -> OperandPlan:
    esize = elem_bytes(spec.a_dtype)
    tile = PaddedTile(outer, spec.bk, spec.lds_pad, stages)
    if k_contiguous:
        split = split_tile_evenly(outer, spec.bk, threads, esize)
    else:
        split = split_tile_evenly(spec.bk, outer, threads, esize)
    field = "bm" if name == "a" else "bn"
    if split is None:
        spec.fail(field, f"the {name.upper()} tile of {outer} x {spec.bk} elements does not split evenly over "
                         f"{threads} threads")
    assert split is not None
    if tile.count > MAX_LDS_ALLOC_ELEMS:
        spec.fail(field, f"the {name.upper()} LDS tile holds {tile.count} elements, over the allocation limit "
                         f"of {MAX_LDS_ALLOC_ELEMS}")
    frag = plan_fragment(spec.atom(), name, outer_is_row, tile.stride)
    if frag is None:
        spec.fail("op_id", f"has a {name.upper()} fragment layout that is not lane/slot separable")
    assert frag is not None
    return OperandPlan(name, k_contiguous, tile, split, frag)


def plan_gemm(spec: GemmSpec, target: ArchTarget, *, _fault: str = "") -> GemmPlan:
    """The plan, or SpecError for a spec the arch refuses. _fault "transpose_a_frag" (a test-only
    hook of build) reads the A fragment with its row and column formulas swapped."""
    op = spec.atom()
    if target.mma_signature(spec.op_id) is None:
        spec.fail("op_id", f"is not available on {target.name} (it runs on {', '.join(op.archs)})")
    threads = spec.threads
    if threads > target.max_workgroup_size:
        spec.fail("wm", f"wm * wn = {spec.wm * spec.wn} waves of {op.wave_size} lanes exceed the "
                        f"{target.max_workgroup_size}-thread workgroup limit of {target.name}")
    stages = 2 if spec.double_buffer else 1
    a = _operand(spec, "a", spec.bm, spec.a_layout == "row", stages, threads, _fault != "transpose_a_frag")
    b = _operand(spec, "b", spec.bn, spec.b_layout == "col", stages, threads, False)
    esize = elem_bytes(spec.a_dtype)
    lds_bytes = a.tile.nbytes(esize) + b.tile.nbytes(esize)
    if lds_bytes > target.lds_bytes:
        spec.fail("bk", f"the LDS tiles need {lds_bytes} bytes ({stages} stage(s) of ({spec.bm} + {spec.bn}) x "
                        f"({spec.bk} + {spec.lds_pad}) {spec.a_dtype}), over the {target.lds_bytes} bytes of "
                        f"{target.name}")
    c_row = split_formula(op.c.row_expr, op.wave_size, op.c.length)
    c_col = split_formula(op.c.col_expr, op.wave_size, op.c.length)
    if c_row is None or c_col is None:
        spec.fail("op_id", "has a C fragment layout that is not lane/slot separable")
    assert c_row is not None and c_col is not None
    wave_tile_m = spec.bm // spec.wm
    wave_tile_n = spec.bn // spec.wn
    return GemmPlan(op, threads, wave_tile_m // op.m, wave_tile_n // op.n, wave_tile_m, wave_tile_n, stages,
                    a, b, c_row, c_col, lds_bytes)
