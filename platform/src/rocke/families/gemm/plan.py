"""Host-time plan of a gemm kernel on one arch: the tile-GEMM main loop's plan
(rocke.helpers.tile_gemm) for the spec's tile, with the spec's refusals.

LDS holds A as [bm][bk + lds_pad] and B as [bn][bk + lds_pad] (k contiguous for both, so MMA
fragments are vector loads), in 1 or 2 stages. Global -> LDS copies read vectors along each
operand's contiguous dimension: k for row-major A and column-major B (vector LDS stores), m or n
otherwise (the copy transposes: one LDS store per element).
"""

from __future__ import annotations

from rocke.arch import ArchTarget
from rocke.helpers import OperandPlan, TileGemmPlan, TileShape, plan_tile_gemm

from .spec import GemmSpec

GemmPlan = TileGemmPlan

__all__ = ["GemmPlan", "OperandPlan", "plan_gemm", "tile_shape"]


def tile_shape(spec: GemmSpec) -> TileShape:
    """The main loop's tile: A k-contiguous when row-major, B when column-major."""
    return TileShape(spec.bm, spec.bn, spec.bk, spec.wm, spec.wn, spec.lds_pad, spec.double_buffer, spec.a_dtype,
                     spec.atom(), spec.a_layout == "row", spec.b_layout == "col")


def plan_gemm(spec: GemmSpec, target: ArchTarget, *, _fault: str = "") -> GemmPlan:
    """The plan, or SpecError for a spec the arch refuses. _fault "transpose_a_frag" (a test-only
    hook of build) reads the A fragment with its row and column formulas swapped."""
    return plan_tile_gemm(tile_shape(spec), target, spec.fail, transpose_a_frag=_fault == "transpose_a_frag")
