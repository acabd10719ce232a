"""The conv_igemm_fwd spec: implicit-GEMM forward convolution on the matrix cores, NHWC x KYXC -> NHWK,
f16/bf16 storage, f32 accumulation."""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import MmaOp, mma_op
from rocke.families.spec import Spec, check_mma_atom, check_tile_gemm, check_vec

from ..geometry import check_window

INPUT_DTYPES = ("f16", "bf16")


@dataclass(frozen=True)
class ConvIgemmFwdSpec(Spec):
    """y[n, oh, ow, k] = act(bias[k] + sum over taps and the group's channels of x * w), as one GEMM per
    group: M = N * Ho * Wo output pixels, N = K / G output channels, Kdim = Y * X * C / G (tap-major,
    channel-minor: the order of w's rows).

    dtype: storage of input, weights, bias and output (MMA inputs; f32 accumulation). The tile fields
    (bm, bn, bk, wm, wn, op_id, lds_pad, double_buffer) are those of the tile-GEMM main loop
    (rocke.helpers.tile_gemm): a workgroup computes bm pixels x bn output channels of one group. vec:
    the widest input-channel vector one copy access of x reads (C / G must be a multiple of it). bias
    adds bias[k]; relu clamps at zero after the bias. The window fields as in img2col; a 1x1 window of
    stride 1 without padding takes the fast path (x is the A matrix, no tap arithmetic)."""

    FAMILY = "conv_igemm_fwd"

    bias: bool
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
    relu: bool
    stride_h: int
    stride_w: int
    vec: int
    wm: int
    wn: int

    def check(self) -> None:
        if self.dtype not in INPUT_DTYPES:
            self.fail("dtype", f"must be one of {', '.join(INPUT_DTYPES)}")
        check_vec(self)
        op = check_mma_atom(self, "dtype", self.dtype)
        check_tile_gemm(self, op)
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

    @property
    def pointwise(self) -> bool:
        """The fast path: output pixel m reads input pixel m (1x1 window, stride 1, no padding)."""
        return (self.filter_y == 1 and self.filter_x == 1 and self.stride_h == 1 and self.stride_w == 1
                and self.pad_h == 0 and self.pad_w == 0)
