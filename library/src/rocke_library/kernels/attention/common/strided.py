"""Strided (token, head) rows of the attention tensors as the backward's elementwise kernels
address them: a row's element index and a tensor's extent from per-dimension coordinates, counts
and strides (outermost first: batched (batch, s, h), varlen (t, h)); head_dim elements contiguous."""

from __future__ import annotations

from rocke.helpers import add_i32, const_i32
from rocke.ir import Builder, Value


def strided_index(b: Builder, coords: list[Value], strides: list[Value], first: Value) -> Value:
    """sum of coords[i] * strides[i], plus first (the element inside the row)."""
    index = b.mul(coords[0], strides[0])
    for coord, stride in zip(coords[1:], strides[1:], strict=True):
        index = b.add(index, b.mul(coord, stride))
    return b.add(index, first)


def strided_extent(b: Builder, counts: list[Value], strides: list[Value], head_dim: int, rows: Value, *,
                   name: str) -> Value:
    """Elements from the tensor's first to one past its last: sum of (counts[i] - 1) * strides[i]
    plus head_dim, or 0 when rows (the tensor's row count) is 0."""
    extent = b.mul(add_i32(b, counts[0], -1), strides[0])
    for count, stride in zip(counts[1:], strides[1:], strict=True):
        extent = b.add(extent, b.mul(add_i32(b, count, -1), stride))
    extent = add_i32(b, extent, head_dim)
    some = b.cmpi("sgt", rows, const_i32(b, 0))
    return b.select(some, extent, const_i32(b, 0), name=name)
