"""Bounds-checked memory through raw buffer resources.

A raw buffer access whose byte range lies past `num_records` reads zero and drops stores. Lanes
that must not touch memory get the byte offset OOB_OFFSET (2^31, the value composable_kernel uses),
which lies past any buffer of fewer than 2^31 bytes. A vector access that straddles the end is
chipset-dependent, so vectors are split: a whole vector when every element is inside, otherwise
one masked scalar access per element.
"""

from __future__ import annotations

from rocke.ir import Builder, ScalarType, Value

from .dtypes import vector_type
from .index import add_i32, const_i32, mul_i32

OOB_OFFSET = -(2**31)  # 0x80000000 as i32: past the end of every buffer the launch contracts allow


def buffer_rsrc(b: Builder, base: Value, elems: Value, esize: int, *, name: str | None = None) -> Value:
    """Buffer resource over `elems` elements of esize bytes starting at pointer base."""
    return b.make_rsrc(base, mul_i32(b, elems, esize), name=name)


def masked_offset(b: Builder, ok: Value, index: Value, esize: int) -> Value:
    """Byte offset of element index when ok, else OOB_OFFSET."""
    return masked_bytes(b, ok, mul_i32(b, index, esize))


def masked_bytes(b: Builder, ok: Value, byte_offset: Value) -> Value:
    """byte_offset when ok, else OOB_OFFSET."""
    return b.select(ok, byte_offset, const_i32(b, OOB_OFFSET))


def load_guarded(
    b: Builder, rsrc: Value, index: Value, valid: Value, elem: ScalarType, lanes: int, *, name: str | None = None
) -> Value:
    """`lanes` consecutive elements from element index; elements j >= valid (device i32) read 0."""
    esize = elem.bits // 8
    if lanes == 1:
        ok = b.cmpi("sgt", valid, const_i32(b, 0))
        return b.buffer_load(rsrc, masked_offset(b, ok, index, esize), elem, name=name)
    vtype = vector_type(elem, lanes)
    byte0 = mul_i32(b, index, esize)

    def whole() -> Value:
        return b.buffer_load(rsrc, byte0, vtype)

    def partial() -> Value:
        value = b.splat(b.const(0.0, elem), lanes)
        for j in range(lanes):
            ok = b.cmpi("sgt", valid, const_i32(b, j))
            offset = masked_bytes(b, ok, add_i32(b, byte0, j * esize))
            value = b.insert(value, b.buffer_load(rsrc, offset, elem), j)
        return value

    full = b.cmpi("sge", valid, const_i32(b, lanes))
    return b.if_(full, whole, partial, names=[name])[0]


def store_guarded(
    b: Builder, rsrc: Value, index: Value, valid: Value, value: Value, elem: ScalarType, lanes: int
) -> None:
    """Store `lanes` consecutive elements (a value of elem or vec<elem x lanes>) at element index;
    elements j >= valid (device i32) are dropped."""
    esize = elem.bits // 8
    if lanes == 1:
        ok = b.cmpi("sgt", valid, const_i32(b, 0))
        b.buffer_store(rsrc, masked_offset(b, ok, index, esize), value)
        return

    byte0 = mul_i32(b, index, esize)

    def whole() -> None:
        b.buffer_store(rsrc, byte0, value)

    def partial() -> None:
        for j in range(lanes):
            ok = b.cmpi("sgt", valid, const_i32(b, j))
            offset = masked_bytes(b, ok, add_i32(b, byte0, j * esize))
            b.buffer_store(rsrc, offset, b.extract(value, j))

    b.if_(b.cmpi("sge", valid, const_i32(b, lanes)), whole, partial)


def valid_if(b: Builder, ok: Value, count: Value) -> Value:
    """count when ok, else 0: the valid-element count of a vector whose row may be out of range."""
    return b.select(ok, count, const_i32(b, 0))

