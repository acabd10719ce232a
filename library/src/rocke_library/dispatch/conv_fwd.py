"""Convolution problems (forward here; dgrad and wgrad reuse the fields): NHWC input x[N, H, W, C],
KYXC weights w[K, Y, X, C/g], NHWK output y[N, Ho, Wo, K], g groups.

Fields (kv keys): n, h, w, c, k (sizes, 0 allowed), g (groups, default 1), filter_y, filter_x,
stride_h, stride_w (default 1), pad_h, pad_w (default 0), dil_h, dil_w (default 1), dtype (f16, bf16,
f32, f64), bias, relu (0/1, default 0), layout (nhwc, nchw; default nhwc) and align (bytes every
buffer's base is a multiple of, default 16). Rules (malformed otherwise): c and k multiples of g.
C++ twin: rocke_library/dispatch/conv_fwd.hpp.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rocke_library.kernels.conv.geometry import output_size

from .problem import PROBLEM_DTYPES, Problem

LAYOUTS = ("nhwc", "nchw")
CONV_DEFAULTS: dict[str, Any] = {"align": 16, "bias": False, "dil_h": 1, "dil_w": 1, "g": 1, "layout": "nhwc",
                                 "pad_h": 0, "pad_w": 0, "relu": False, "stride_h": 1, "stride_w": 1}


@dataclass(frozen=True)
class ConvProblem(Problem):
    """The fields and rules every convolution problem kind shares."""

    align: int
    bias: bool
    c: int
    dil_h: int
    dil_w: int
    dtype: str
    filter_x: int
    filter_y: int
    g: int
    h: int
    k: int
    layout: str
    n: int
    pad_h: int
    pad_w: int
    relu: bool
    stride_h: int
    stride_w: int
    w: int

    @classmethod
    def defaults(cls, given: dict[str, Any]) -> dict[str, Any]:
        return dict(CONV_DEFAULTS)

    def check(self) -> None:
        self.check_choice("dtype", PROBLEM_DTYPES)
        self.check_choice("layout", LAYOUTS)
        for field in ("n", "h", "w", "c", "k"):
            self.check_range(field, 0)
        for field in ("g", "filter_y", "filter_x", "stride_h", "stride_w", "dil_h", "dil_w"):
            self.check_range(field, 1)
        for field in ("pad_h", "pad_w"):
            self.check_range(field, 0)
        if self.c % self.g != 0:
            self.fail("c", f"must be a multiple of g={self.g}")
        if self.k % self.g != 0:
            self.fail("k", f"must be a multiple of g={self.g}")
        self.check_align(self.dtype)

    def output_hw(self) -> tuple[int, int]:
        """(Ho, Wo): 0 where the padded input is smaller than the dilated filter."""
        return (output_size(self.h, self.filter_y, self.stride_h, self.pad_h, self.dil_h),
                output_size(self.w, self.filter_x, self.stride_w, self.pad_w, self.dil_w))

    @property
    def taps(self) -> int:
        return self.filter_y * self.filter_x


@dataclass(frozen=True)
class ConvFwdProblem(ConvProblem):
    """y = conv(x, w) (+ bias) (relu)."""

    KIND = "conv_fwd"
    FAMILY = "conv_fwd problem"

    def dead(self) -> bool:
        """Nothing to write: the output y[N, Ho, Wo, K] is empty."""
        ho, wo = self.output_hw()
        return self.n * ho * wo * self.k == 0
