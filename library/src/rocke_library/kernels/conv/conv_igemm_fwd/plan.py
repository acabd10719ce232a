"""Host-time plan of a conv_igemm_fwd kernel on one arch: the tile-GEMM main loop's plan
(rocke.helpers.tile_gemm) for the spec's tile, with the spec's refusals.

Both operands are k-contiguous: A (pixels x Kdim) because NHWC puts a pixel's channels next to each
other, B (output channels x Kdim) because KYXC puts a filter's taps and channels next to each other.
A's copy vectors run along the channels of one tap, so they hold at most vec elements (C / G is a
multiple of vec, so a vector never straddles two taps).
"""

from __future__ import annotations

from rocke.arch import ArchTarget
from rocke.helpers import TileGemmPlan, TileShape, plan_tile_gemm

from .spec import ConvIgemmFwdSpec


def tile_shape(spec: ConvIgemmFwdSpec) -> TileShape:
    """The main loop's tile: A and B k-contiguous, A's copy vectors at most vec channels."""
    return TileShape(spec.bm, spec.bn, spec.bk, spec.wm, spec.wn, spec.lds_pad, spec.double_buffer, spec.dtype,
                     spec.atom(), True, True, a_max_vec=spec.vec)


def plan_conv(spec: ConvIgemmFwdSpec, target: ArchTarget) -> TileGemmPlan:
    """The plan, or SpecError for a spec the arch refuses."""
    return plan_tile_gemm(tile_shape(spec), target, spec.fail)
