"""The img2col spec: an NHWC input unrolled into the column matrix of a convolution."""

from __future__ import annotations

from dataclasses import dataclass

from rocke.families.spec import Spec
from rocke.helpers import FLOAT_DTYPES, elem_bytes

from ..geometry import check_window

VEC_WIDTHS = (1, 2, 4, 8)
MAX_ACCESS_BYTES = 16  # the widest buffer access (dwordx4)
BLOCK_STEP = 32  # the smaller wave size; build() also requires a multiple of the arch's wave size
MAX_BLOCK = 1024


@dataclass(frozen=True)
class Img2colSpec(Spec):
    """block: threads per workgroup; dtype: storage of input and columns; vec: channels per access
    (the problem's channels per group must be a multiple); the window: filter_y x filter_x taps,
    stride_h/stride_w, pad_h/pad_w (both sides), dil_h/dil_w."""

    FAMILY = "img2col"

    block: int
    dil_h: int
    dil_w: int
    dtype: str
    filter_x: int
    filter_y: int
    pad_h: int
    pad_w: int
    stride_h: int
    stride_w: int
    vec: int

    def check(self) -> None:
        if self.dtype not in FLOAT_DTYPES:
            self.fail("dtype", f"must be one of {', '.join(FLOAT_DTYPES)}")
        if self.vec not in VEC_WIDTHS:
            self.fail("vec", "must be 1, 2, 4 or 8")
        most = MAX_ACCESS_BYTES // elem_bytes(self.dtype)
        if self.vec > most:
            self.fail("vec", f"one {self.dtype} access holds at most {most} elements ({MAX_ACCESS_BYTES} bytes)")
        if self.block < BLOCK_STEP or self.block > MAX_BLOCK or self.block % BLOCK_STEP != 0:
            self.fail("block", f"must be a multiple of {BLOCK_STEP} in {BLOCK_STEP}..{MAX_BLOCK}")
        check_window(self)

    @property
    def taps(self) -> int:
        return self.filter_y * self.filter_x
