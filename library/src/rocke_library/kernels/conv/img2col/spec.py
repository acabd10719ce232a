"""The img2col spec: an NHWC input unrolled into the column matrix of a convolution."""

from __future__ import annotations

from dataclasses import dataclass

from rocke.families.spec import Spec, check_dtype, check_threads, check_vec

from ..geometry import check_window


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
        check_dtype(self)
        check_vec(self)
        check_threads(self, "block", self.block)
        check_window(self)

    @property
    def taps(self) -> int:
        return self.filter_y * self.filter_x
