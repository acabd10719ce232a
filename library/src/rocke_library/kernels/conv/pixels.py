"""Device index math shared by the conv builders: output extents and output pixel coordinates.

Output pixel m (0 <= m < N * Ho * Wo) is (img, oh, ow) in NHWC order; its window starts at input
row oh * stride_h - pad_h and column ow * stride_w - pad_w (negative inside the top/left padding).
Nothing here masks: the caller combines `ok` with the per-tap bounds and turns a failed check
into the out-of-range buffer offset (a zero read, a dropped store).
"""

from __future__ import annotations

from dataclasses import dataclass

from rocke.helpers import add_i32, divu_i32, mul_i32
from rocke.ir import Builder, Value

from .geometry import WindowSpec, extent


@dataclass(frozen=True)
class Pixel:
    """One output pixel of a thread."""

    ok: Value  # m < N * Ho * Wo
    row: Value  # input row of tap (0, 0); may be negative
    col: Value  # input column of tap (0, 0); may be negative
    base: Value  # NHWC element index of (img, row, col, channel 0); meaningful only with the bounds


def out_extent(b: Builder, size: Value, filter_size: int, stride: int, pad: int, dil: int) -> Value:
    """(size + 2 pad - dilated extent) / stride + 1; the launch contract guarantees a span >= 0."""
    shift = 2 * pad - extent(filter_size, dil)
    if stride == 1:
        return add_i32(b, size, shift + 1)
    return add_i32(b, divu_i32(b, add_i32(b, size, shift), stride), 1)


def out_dims(b: Builder, spec: WindowSpec, h: Value, w: Value) -> tuple[Value, Value]:
    """Device (Ho, Wo) of an H x W input."""
    ho = out_extent(b, h, spec.filter_y, spec.stride_h, spec.pad_h, spec.dil_h)
    wo = out_extent(b, w, spec.filter_x, spec.stride_w, spec.pad_w, spec.dil_w)
    return ho, wo


def pixel(b: Builder, spec: WindowSpec, m: Value, total: Value, dims: tuple[Value, Value, Value, Value, Value],
          channel0: Value) -> Pixel:
    """Pixel m of `total`; dims = (Ho, Wo, H, W, C) as device values; channel0 is added to base."""
    ho, wo, h, w, c = dims
    ok = b.cmpi("slt", m, total, name="pix_ok")
    ow = b.remu(m, wo, name="ow")
    rest = b.divu(m, wo)
    oh = b.remu(rest, ho, name="oh")
    img = b.divu(rest, ho, name="img")
    row = add_i32(b, mul_i32(b, oh, spec.stride_h), -spec.pad_h)
    col = add_i32(b, mul_i32(b, ow, spec.stride_w), -spec.pad_w)
    line = b.add(b.mul(img, h), row)
    spot = b.add(b.mul(line, w), col)
    base = b.add(b.mul(spot, c), channel0, name="pix_base")
    return Pixel(ok, row, col, base)


def inside(b: Builder, pix: Pixel, hi: Value, wi: Value, h: Value, w: Value) -> Value:
    """pix.ok and 0 <= hi < H and 0 <= wi < W (unsigned compares reject negatives)."""
    rows = b.cmpi("ult", hi, h)
    cols = b.cmpi("ult", wi, w)
    return b.and_(pix.ok, b.and_(rows, cols), name="tap_ok")
