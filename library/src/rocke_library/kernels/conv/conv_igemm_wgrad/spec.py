"""The conv_igemm_wgrad spec: the weight gradient of a convolution as an implicit GEMM on the matrix
cores, dw (KYXC) from x (NHWC) and dy (NHWK), f32 accumulation, K split across workgroups."""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import MmaOp, mma_op
from rocke.families.spec import Spec

from ..geometry import check_window
from ..igemm import check_gemm_tile

MAX_SPLIT_K = 64


@dataclass(frozen=True)
class ConvIgemmWgradSpec(Spec):
    """dw[g*K/G + k, ty, tx, c] = sum over n, oh, ow of dy[n, oh, ow, g*K/G + k] *
    x[n, oh*stride_h - pad_h + ty*dil_h, ow*stride_w - pad_w + tx*dil_w, g*C/G + c] (zero outside x).

    GEMM view per group: M = K/G output channels, N = Y*X*C/G (tap-major, then channel), K =
    N*Ho*Wo output pixels. split_k workgroups share the K range of one output tile: with
    split_k = 1 the kernel stores dw directly; with split_k > 1 each adds its f32 partial sums into
    a zero-initialised f32 workspace with atomics, and the convert kernel (convert=1, same spec
    otherwise) turns the workspace into dw. The tile fields as in conv_igemm_dgrad; vec: channels per
    global vector access (of dy along k, of x along c; the convert kernel's elements per thread)."""

    FAMILY = "conv_igemm_wgrad"

    bk: int
    bm: int
    bn: int
    convert: bool
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
    split_k: int
    stride_h: int
    stride_w: int
    vec: int
    wm: int
    wn: int

    def check(self) -> None:
        check_gemm_tile(self)
        check_window(self)
        if not 1 <= self.split_k <= MAX_SPLIT_K:
            self.fail("split_k", f"must be in 1..{MAX_SPLIT_K}")
        if self.convert and self.split_k == 1:
            self.fail("convert", "needs split_k > 1 (with split_k = 1 the main kernel stores dw itself)")

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
    def atomic(self) -> bool:
        """The main kernel adds into the f32 workspace (split_k > 1) instead of storing dw."""
        return self.split_k > 1
