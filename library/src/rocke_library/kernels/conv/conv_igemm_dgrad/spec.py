"""The conv_igemm_dgrad spec: the data gradient of a convolution as an implicit GEMM on the matrix
cores, dx (NHWC) from dy (NHWK) and w (KYXC), f32 accumulation."""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import MmaOp, mma_op
from rocke.families.spec import Spec

from ..geometry import check_window
from ..igemm import check_gemm_tile


@dataclass(frozen=True)
class ConvIgemmDgradSpec(Spec):
    """dx[n, h, w, g*C/G + c] = sum over taps (ty, tx) and the group's output channels k of
    dy[n, oh, ow, g*K/G + k] * w[g*K/G + k, ty, tx, c], where oh * stride_h = h + pad_h - ty * dil_h
    and ow * stride_w = w + pad_w - tx * dil_w (taps whose division is not exact, or lands outside
    dy, contribute nothing).

    GEMM view per group: M = N*H*W input pixels, N = C/G channels, K = Y*X*K/G (tap-major, then
    output channel). bm x bn x bk is the workgroup tile, wm x wn the waves over it, op_id the MMA
    atom, lds_pad the LDS line padding, double_buffer stages the next K tile during the MMAs. vec:
    channels per global vector access (of dy along k, of w and dx along c). The window fields as in
    img2col."""

    FAMILY = "conv_igemm_dgrad"

    bk: int
    bm: int
    bn: int
    dil_h: int
    dil_w: int
    double_buffer: bool
    dtype: str
    filter_x: int
    filter_y: int
    lds_pad: int
    op_id: str
    pad_h: int
    pad_w: int
    stride_h: int
    stride_w: int
    vec: int
    wm: int
    wn: int

    def check(self) -> None:
        check_gemm_tile(self)
        check_window(self)

    def atom(self) -> MmaOp:
        """The MMA catalog op each wave repeats."""
        return mma_op(self.op_id)

    @property
    def threads(self) -> int:
        """Threads per workgroup: wm * wn waves of the atom's wave size."""
        return self.wm * self.wn * self.atom().wave_size

    @property
    def taps(self) -> int:
        return self.filter_y * self.filter_x
