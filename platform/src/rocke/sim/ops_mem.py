"""mem.*: global/constant loads and stores, pointer arithmetic, raw buffers, LDS, atomics.

Only active lanes touch memory; inactive lanes of a load's result hold zeros. Indices are
signed and count pointees; a load or store of `lanes` pointees touches that many consecutive
pointees. A nonzero `align` attribute is a promise: an access whose byte address is not a
multiple of it is undefined behavior and reported (a bound array counts as 256-byte aligned,
like a device allocation; an LDS allocation sits at its offset in the workgroup's LDS pool).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from rocke.ir import Op, PtrType, VecType

from .dtypes import elem_bytes, lane_shape, numpy_dtype, total_bytes
from .errors import MemoryFault, UndefinedBehavior
from .machine import Machine, Mask, handler_table
from .memory import (
    GlobalRegion,
    LdsAccess,
    LdsRegion,
    check_bounds,
    global_gather,
    global_scatter,
    lds_load,
    lds_store,
)
from .values import PtrVal, RsrcVal

HANDLERS, handles = handler_table()


def _pointee_elems(pty: PtrType) -> int:
    pointee = pty.pointee
    return pointee.lanes if isinstance(pointee, VecType) else 1


def _by_region(m: Machine, op: Op, regions: np.ndarray, mask: Mask) -> Iterator[tuple[int, np.ndarray]]:
    """(region index, active lanes pointing into it), usually a single pair."""
    lanes = mask.lanes
    if lanes.size == 0:
        return
    regs = regions[lanes]
    first = int(regs[0])
    groups = [(first, lanes)] if bool((regs == first).all()) else [
        (int(r), lanes[regs == r]) for r in np.unique(regs)]
    for rid, selected in groups:
        if rid < 0:
            m.fail(MemoryFault, op, "dereferences a pointer that points into no memory", int(selected[0]))
        yield rid, selected


def _check_align(m: Machine, op: Op, byte_offset: np.ndarray, lanes: np.ndarray) -> None:
    align = int(op.attrs.get("align", 0))
    if align > 1:
        bad = byte_offset % align != 0
        if bad.any():
            i = int(np.argmax(bad))
            m.fail(UndefinedBehavior, op, f"byte address {int(byte_offset[i])} is not a multiple of align = {align}",
                   int(lanes[i]))


def _check_global_access(m: Machine, op: Op, region: GlobalRegion, writes: bool, lanes: np.ndarray) -> None:
    if writes and region.space == "constant":
        m.fail(MemoryFault, op, f"writes {region.label}, which is constant memory", int(lanes[0]))
    if writes and region.readonly:
        m.fail(MemoryFault, op, f"writes {region.label}, which is declared readonly", int(lanes[0]))
    if writes and not region.writeable:
        m.fail(MemoryFault, op, f"writes {region.label}, whose numpy array is not writeable", int(lanes[0]))
    if not writes and region.writeonly:
        m.fail(MemoryFault, op, f"reads {region.label}, which is declared writeonly", int(lanes[0]))


def _start(ptr: PtrVal, index: np.ndarray, pty: PtrType) -> np.ndarray:
    return ptr.offset + index.astype(np.int64) * _pointee_elems(pty)


def _pointer_lanes(m: Machine, op: Op, ptr: PtrVal, index: np.ndarray, mask: Mask
                   ) -> Iterator[tuple[GlobalRegion | LdsRegion, np.ndarray, np.ndarray]]:
    """(region, active lanes, their start element) per region that ptr[index] reaches."""
    start_all = _start(ptr, index, op.operands[0].type)
    for rid, lanes in _by_region(m, op, ptr.region, mask):
        yield m.regions[rid], lanes, start_all[lanes]


def _load_result(m: Machine, op: Op) -> tuple[np.ndarray, int]:
    """The zeroed (lanes, k) result of a load through a pointer, and k (elements per lane)."""
    k = _pointee_elems(op.operands[0].type) * int(op.attrs["lanes"])
    return np.zeros((m.lanes, k), numpy_dtype(op.results[0].type)), k


# ---------------------------------------------------------------------- global / constant
@handles("mem.load")
def _load(m: Machine, op: Op, mask: Mask):
    ptr, index = m.args(op)
    out, k = _load_result(m, op)
    for region, lanes, start in _pointer_lanes(m, op, ptr, index, mask):
        _check_global_access(m, op, region, False, lanes)
        _check_align(m, op, start * region.esize, lanes)
        check_bounds(region, start, k, lanes, m.failer(op), "reads")
        out[lanes] = global_gather(region, start, k)
    return (out.reshape(lane_shape(op.results[0].type, m.lanes)),)


@handles("mem.store")
def _store(m: Machine, op: Op, mask: Mask):
    ptr, index, value = m.args(op)
    values = value.reshape(m.lanes, -1)
    k = values.shape[1]
    for region, lanes, start in _pointer_lanes(m, op, ptr, index, mask):
        _check_global_access(m, op, region, True, lanes)
        _check_align(m, op, start * region.esize, lanes)
        check_bounds(region, start, k, lanes, m.failer(op), "writes")
        global_scatter(region, start, values[lanes])
    return None


@handles("mem.ptr_add")
def _ptr_add(m: Machine, op: Op, mask: Mask):
    ptr, index = m.args(op)
    return (PtrVal(ptr.region, _start(ptr, index, op.operands[0].type)),)


@handles("mem.atomic_add_f32")
def _atomic_add(m: Machine, op: Op, mask: Mask):
    ptr, index, value = m.args(op)
    for region, lanes, start in _pointer_lanes(m, op, ptr, index, mask):
        _check_global_access(m, op, region, True, lanes)
        check_bounds(region, start, 1, lanes, m.failer(op), "updates")
        addresses, values = atomic_updates(m.atomic_order, lanes, start, value[lanes], m.arch.wave_size)
        # ufunc.at applies the updates in array order, each rounded in f32; repeats all count.
        np.add.at(region.elem, addresses, values)
    return None


def atomic_updates(order: str, lanes: np.ndarray, start: np.ndarray, values: np.ndarray, wave_size: int
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The (address, value) adds one atomic op makes, in the order they reach memory.

    "wave": what LLVM's atomic optimizer emits (seen at LLVM 22 on gfx942 and gfx1100): a wave
    whose active lanes all hit one address sums their values in f32 from -0.0, lowest lane first
    (the s_ff1 / v_readlane loop), and makes one add; a wave with several addresses adds lane by
    lane, lowest lane first. Waves in order. "lanes": every lane adds alone, lowest first (the
    code when LLVM cannot prove the address uniform). "reverse": every lane alone, highest first
    (the memory system does not promise an order among the lanes of one instruction).
    """
    if order == "lanes":
        return start, values
    if order == "reverse":
        return start[::-1], values[::-1]
    wave = lanes // wave_size
    first = np.flatnonzero(np.r_[True, wave[1:] != wave[:-1]])  # first active lane of each wave
    lo = np.minimum.reduceat(start, first)
    hi = np.maximum.reduceat(start, first)
    uniform = lo == hi
    if not uniform.any():
        return start, values
    # (waves, wave_size) table of values, -0.0 (the identity the optimizer starts from) elsewhere
    table = np.full((first.size, wave_size), np.float32(-0.0), np.float32)
    table[np.repeat(np.arange(first.size), np.diff(np.r_[first, lanes.size])), lanes % wave_size] = values
    total = table[:, 0].copy()
    for column in range(1, wave_size):
        total += table[:, column]
    keep = np.repeat(~uniform, np.diff(np.r_[first, lanes.size]))  # lanes of waves with several addresses
    keep[first[uniform]] = True
    out = values.copy()
    out[first[uniform]] = total[uniform]
    return start[keep], out[keep]


# ---------------------------------------------------------------------- raw buffers
@handles("mem.make_rsrc")
def _make_rsrc(m: Machine, op: Op, mask: Mask):
    base, num_records = m.args(op)
    esize = elem_bytes(op.operands[0].type.pointee)
    return (RsrcVal(base.region, base.offset * esize, num_records.view(np.uint32).astype(np.int64)),)


def _buffer_lanes(m: Machine, op: Op, rsrc: RsrcVal, offset: np.ndarray, nbytes: int, mask: Mask, writes: bool
                  ) -> Iterator[tuple[GlobalRegion, np.ndarray, np.ndarray]]:
    """(region, in-range lanes, their byte addresses); out-of-range lanes are left out."""
    for rid, lanes in _by_region(m, op, rsrc.region, mask):
        region = m.regions[rid]
        off = offset[lanes].view(np.uint32).astype(np.int64)  # the offset is unsigned
        records = rsrc.num_records[lanes]
        inside = off + nbytes <= records
        straddle = ~inside & (off < records)
        if straddle.any():
            i = int(np.argmax(straddle))
            m.fail(MemoryFault, op, f"bytes {int(off[i])}..{int(off[i]) + nbytes - 1} straddle num_records = "
                                    f"{int(records[i])} (a partly out-of-range buffer access is chipset-dependent)",
                   int(lanes[i]))
        if not inside.any():
            continue
        lanes, off = lanes[inside], off[inside]
        _check_global_access(m, op, region, writes, lanes)
        address = rsrc.base[lanes] + off
        bad = (address < 0) | (address + nbytes > region.nbytes)
        if bad.any():
            i = int(np.argmax(bad))
            m.fail(MemoryFault, op, f"bytes {int(address[i])}..{int(address[i]) + nbytes - 1} of {region.label} are "
                                    f"inside num_records but outside its bound array of {region.nbytes} bytes",
                   int(lanes[i]))
        yield region, lanes, address


@handles("mem.buffer_load")
def _buffer_load(m: Machine, op: Op, mask: Mask):
    rsrc, offset = m.args(op)
    rty = op.results[0].type
    dtype = numpy_dtype(rty)
    nbytes = total_bytes(rty)
    out = np.zeros((m.lanes, nbytes // dtype.itemsize), dtype)  # out of range reads zero
    for region, lanes, address in _buffer_lanes(m, op, rsrc, offset, nbytes, mask, False):
        raw = region.raw[address[:, None] + np.arange(nbytes, dtype=np.int64)]
        out[lanes] = np.ascontiguousarray(raw).view(dtype)
    return (out.reshape(lane_shape(rty, m.lanes)),)


@handles("mem.buffer_store")
def _buffer_store(m: Machine, op: Op, mask: Mask):
    rsrc, offset, value = m.args(op)
    vty = op.operands[2].type
    nbytes = total_bytes(vty)
    raw_values = np.ascontiguousarray(value).reshape(m.lanes, -1).view(np.uint8)
    for region, lanes, address in _buffer_lanes(m, op, rsrc, offset, nbytes, mask, True):
        region.raw[address[:, None] + np.arange(nbytes, dtype=np.int64)] = raw_values[lanes]
    return None  # out-of-range lanes were dropped


# ---------------------------------------------------------------------- LDS
@handles("mem.lds_alloc")
def _lds_alloc(m: Machine, op: Op, mask: Mask):
    rid = m.lds_region_of[id(op)]
    return (PtrVal(np.full(m.lanes, rid, np.int32), np.zeros(m.lanes, np.int64)),)


def _lds_access(m: Machine, op: Op, region: LdsRegion, start: np.ndarray, k: int, lanes: np.ndarray,
                verb: str) -> LdsAccess:
    check_bounds(region, start, k, lanes, m.failer(op), verb)
    _check_align(m, op, region.pool_offset + start * region.esize, lanes)
    b = m.batch
    fence = None if m.wave_fence is None else m.wave_fence[lanes // m.arch.wave_size]
    return LdsAccess(region, b.group[lanes], start, k, b.thread_in_group[lanes], m.arch.wave_size, m.epoch, fence)


@handles("mem.lds_load")
def _lds_load(m: Machine, op: Op, mask: Mask):
    ptr, index = m.args(op)
    out, k = _load_result(m, op)
    for region, lanes, start in _pointer_lanes(m, op, ptr, index, mask):
        acc = _lds_access(m, op, region, start, k, lanes, "reads")
        out[lanes] = lds_load(region, acc, lanes, m.failer(op))
    return (out.reshape(lane_shape(op.results[0].type, m.lanes)),)


@handles("mem.lds_store")
def _lds_store(m: Machine, op: Op, mask: Mask):
    ptr, index, value = m.args(op)
    values = value.reshape(m.lanes, -1)
    for region, lanes, start in _pointer_lanes(m, op, ptr, index, mask):
        acc = _lds_access(m, op, region, start, values.shape[1], lanes, "writes")
        lds_store(region, acc, values[lanes], lanes, m.failer(op))
    return None
