"""Host-time plan of a conv_igemm_dgrad kernel on one arch: the tile-GEMM main loop's plan
(rocke.helpers.tile_gemm) for the spec's tile, with the spec's refusals.

A (input pixels x Kdim, Kdim = tap * K/G + k) is k-contiguous: NHWK puts an output pixel's channels
next to each other, and a copy vector of at most vec channels stays inside one tap (K/G is a
multiple of vec). B (Kdim x C/G) is outer-contiguous: KYXC puts a filter row's input channels next
to each other, so the copy vectors run along C/G (at most vec channels).
"""

from __future__ import annotations

from rocke.arch import ArchTarget
from rocke.helpers import TileGemmPlan, TileShape, plan_tile_gemm

from .spec import ConvIgemmDgradSpec


def tile_shape(spec: ConvIgemmDgradSpec) -> TileShape:
    """The main loop's tile: A k-contiguous, B outer-contiguous, copy vectors at most vec channels."""
    return TileShape(spec.bm, spec.bn, spec.bk, spec.wm, spec.wn, spec.lds_pad, spec.double_buffer, spec.dtype,
                     spec.atom(), True, False, a_max_vec=spec.vec, b_max_vec=spec.vec)


def plan_dgrad(spec: ConvIgemmDgradSpec, target: ArchTarget) -> TileGemmPlan:
    """The plan, or SpecError for a spec the arch refuses."""
    return plan_tile_gemm(tile_shape(spec), target, spec.fail)
