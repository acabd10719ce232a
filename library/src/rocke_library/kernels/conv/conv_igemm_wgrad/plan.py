"""Host-time plan of a conv_igemm_wgrad main kernel on one arch: the tile-GEMM main loop's plan
(rocke.helpers.tile_gemm) for the spec's tile, with the spec's refusals.

Both operands are outer-contiguous: A (K/G x Kdim, Kdim = output pixels) because NHWK puts an output
pixel's channels next to each other, B (Kdim x Y*X*C/G, column = tap * C/G + c) because NHWC puts an
input pixel's channels next to each other; the copy vectors run along those channels (at most vec,
and C/G is a multiple of vec, so a B vector never straddles two taps).
"""

from __future__ import annotations

from rocke.arch import ArchTarget
from rocke.helpers import TileGemmPlan, TileShape, plan_tile_gemm

from .spec import ConvIgemmWgradSpec


def tile_shape(spec: ConvIgemmWgradSpec) -> TileShape:
    """The main loop's tile: A and B outer-contiguous, copy vectors at most vec channels."""
    return TileShape(spec.bm, spec.bn, spec.bk, spec.wm, spec.wn, spec.lds_pad, spec.double_buffer, spec.dtype,
                     spec.atom(), False, False, a_max_vec=spec.vec, b_max_vec=spec.vec)


def plan_wgrad(spec: ConvIgemmWgradSpec, target: ArchTarget) -> TileGemmPlan:
    """The plan, or SpecError for a spec the arch refuses."""
    return plan_tile_gemm(tile_shape(spec), target, spec.fail)
