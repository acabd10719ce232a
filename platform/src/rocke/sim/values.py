"""Per-lane values that are not plain numbers: pointers and buffer resources, plus the helpers
every op uses to merge values under a mask and to make placeholder values.

A pointer holds, per lane, the memory region it points into (an index into the launch's region
table; -1 for no region) and an offset in elements of that region. Every pointer into a region
has the region's pointer type (no op casts pointers), so the element size is the region's.
A buffer resource holds, per lane, its region, its base in bytes and num_records.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rocke.ir import PtrType, RsrcType, Type

from .dtypes import lane_shape, numpy_dtype


class PtrVal:
    __slots__ = ("offset", "region")

    def __init__(self, region: np.ndarray, offset: np.ndarray) -> None:
        self.region = region  # (lanes,) int32
        self.offset = offset  # (lanes,) int64, in elements of the region


class RsrcVal:
    __slots__ = ("base", "num_records", "region")

    def __init__(self, region: np.ndarray, base: np.ndarray, num_records: np.ndarray) -> None:
        self.region = region  # (lanes,) int32
        self.base = base  # (lanes,) int64 byte offset of the resource's start in the region
        self.num_records = num_records  # (lanes,) int64, 0 .. 2^32 - 1 bytes


def zeros_of(ty: Type, lanes: int) -> Any:
    """A placeholder value of type ty (zeros; pointers into no region)."""
    if isinstance(ty, PtrType):
        return PtrVal(np.full(lanes, -1, np.int32), np.zeros(lanes, np.int64))
    if isinstance(ty, RsrcType):
        return RsrcVal(np.full(lanes, -1, np.int32), np.zeros(lanes, np.int64), np.zeros(lanes, np.int64))
    return np.zeros(lane_shape(ty, lanes), numpy_dtype(ty))


def select(cond: np.ndarray, a: Any, b: Any) -> Any:
    """Per lane: cond ? a : b, for every kind of value."""
    if isinstance(a, PtrVal):
        return PtrVal(np.where(cond, a.region, b.region), np.where(cond, a.offset, b.offset))
    if isinstance(a, RsrcVal):
        return RsrcVal(np.where(cond, a.region, b.region), np.where(cond, a.base, b.base),
                       np.where(cond, a.num_records, b.num_records))
    if a.ndim == 2:
        cond = cond[:, None]
    return np.where(cond, a, b)
