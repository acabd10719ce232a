"""vec.*: element access, splat and bit reinterpretation (little-endian, element 0 lowest, as on
AMDGPU: bitcasting vec<f16x2> to i32 puts element 0 in bits 15:0)."""

from __future__ import annotations

import numpy as np

from rocke.ir import Op

from .dtypes import lane_shape, numpy_dtype
from .machine import Machine, Mask, handler_table

HANDLERS, handles = handler_table()


@handles("vec.extract")
def _extract(m: Machine, op: Op, mask: Mask):
    (v,) = m.args(op)
    return (np.ascontiguousarray(v[:, int(op.attrs["index"])]),)


@handles("vec.insert")
def _insert(m: Machine, op: Op, mask: Mask):
    v, x = m.args(op)
    out = v.copy()
    out[:, int(op.attrs["index"])] = x
    return (out,)


@handles("vec.splat")
def _splat(m: Machine, op: Op, mask: Mask):
    (x,) = m.args(op)
    return (np.repeat(x[:, None], int(op.attrs["lanes"]), axis=1),)


@handles("vec.bitcast")
def _bitcast(m: Machine, op: Op, mask: Mask):
    (x,) = m.args(op)
    rty = op.results[0].type
    if x.dtype == np.bool_:  # i1 -> i1, the only bitcast of a 1-bit value
        return (x,)
    raw = np.ascontiguousarray(x).reshape(m.lanes, -1).view(np.uint8)
    return (raw.view(numpy_dtype(rty)).reshape(lane_shape(rty, m.lanes)),)
