"""Convolution geometry shared by the conv families: the spec rules of the filter window and the
host-side output size.

A spec fixes the window at compile time -- filter_y x filter_x taps, stride_h/stride_w,
pad_h/pad_w (the same padding before and after each spatial dimension) and dil_h/dil_w -- so tap
offsets, strides and dilations are constants in the kernel and the tap loops have known trip
counts. Problem sizes (N, H, W, C, K, groups) stay kernel arguments: one kernel serves every
tensor shape with that window.
"""

from __future__ import annotations

from typing import Protocol

MAX_FILTER = 16  # per spatial dimension
MAX_TAPS = 64  # filter_y * filter_x: taps unrolled (img2col) or looped with per-tap index math
MAX_STRIDE = 8
MAX_DILATION = 8


class WindowSpec(Protocol):
    """The window fields of a conv spec (and Spec.fail)."""

    dil_h: int
    dil_w: int
    filter_x: int
    filter_y: int
    pad_h: int
    pad_w: int
    stride_h: int
    stride_w: int

    def fail(self, field: str, rule: str) -> None: ...


def check_window(spec: WindowSpec) -> None:
    """The window rules, in order: filter sizes, tap count, strides, dilations, paddings."""
    for field in ("filter_y", "filter_x"):
        if not 1 <= getattr(spec, field) <= MAX_FILTER:
            spec.fail(field, f"must be in 1..{MAX_FILTER}")
    taps = spec.filter_y * spec.filter_x
    if taps > MAX_TAPS:
        spec.fail("filter_x", f"filter_y * filter_x = {taps} taps exceed the limit of {MAX_TAPS}")
    for field in ("stride_h", "stride_w"):
        if not 1 <= getattr(spec, field) <= MAX_STRIDE:
            spec.fail(field, f"must be in 1..{MAX_STRIDE}")
    for field in ("dil_h", "dil_w"):
        if not 1 <= getattr(spec, field) <= MAX_DILATION:
            spec.fail(field, f"must be in 1..{MAX_DILATION}")
    for field, dil, size in (("pad_h", "dil_h", "filter_y"), ("pad_w", "dil_w", "filter_x")):
        most = getattr(spec, dil) * (getattr(spec, size) - 1)
        if not 0 <= getattr(spec, field) <= most:
            spec.fail(field, f"must be in 0..{most} (at most {dil} * ({size} - 1), so every output sees the input)")


def extent(filter_size: int, dilation: int) -> int:
    """Input rows (or columns) one output reads: the dilated filter extent."""
    return dilation * (filter_size - 1) + 1


def output_size(size: int, filter_size: int, stride: int, pad: int, dilation: int) -> int:
    """Output rows (or columns) of a padded input of `size`; 0 when the window does not fit."""
    span = size + 2 * pad - extent(filter_size, dilation)
    return 0 if span < 0 else span // stride + 1


def output_hw(spec: WindowSpec, h: int, w: int) -> tuple[int, int]:
    """(Ho, Wo) for an H x W input."""
    return (output_size(h, spec.filter_y, spec.stride_h, spec.pad_h, spec.dil_h),
            output_size(w, spec.filter_x, spec.stride_w, spec.pad_w, spec.dil_w))
