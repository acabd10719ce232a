"""Memory regions: global/constant buffers bound to the caller's arrays, and LDS allocations.

A region is a flat array of its pointer type's scalar element (a pointer param's numpy array
viewed flat, or one LDS allocation per workgroup). Accesses are checked before they happen:

* global / constant: every element an active lane touches must lie inside the bound array
  (MemoryFault otherwise); global memory is always initialized (the caller filled it).
* LDS: inside the allocation (MemoryFault), every element read must have been written
  (UninitializedRead), and - unless race checking is off - no two threads of a workgroup may
  touch an element, one of them writing, within one barrier interval (DataRace), unless they
  are lanes of one wave with a sync.wave_lds_fence of that wave in between. The simulator runs
  all lanes in lockstep, which would hide a missing barrier; the race check makes it visible.
  Lanes of one wave count too: LLVM orders one thread's LDS accesses only where it cannot
  prove their addresses differ, so `lds[t] = x; y = lds[t ^ 1]` may read before the write.

Race tracking is per element and per workgroup: for the current barrier interval ("epoch", one
counter per workgroup, advanced by sync.barrier) each element remembers the smallest and largest
flat thread index that wrote it and that read it, and the wave-fence count of the last access.
A thread may freely reread and rewrite what it alone touched in the current epoch; a wave may
after its own sync.wave_lds_fence.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

import numpy as np

from .errors import DataRace, MemoryFault, SimError, UninitializedRead

Fail = Callable[[type[SimError], str, int | None], NoReturn]

_NONE_THREAD_MIN = np.int16(32767)
_NONE_THREAD_MAX = np.int16(-1)


class GlobalRegion:
    """A pointer param's array: typed flat view for mem.* ops, byte view for buffer ops."""

    kind = "global"

    def __init__(self, label: str, array: np.ndarray, dtype: np.dtype, space: str, readonly: bool,
                 writeonly: bool) -> None:
        self.label = label  # e.g. "param #0 %0 'a'"
        self.space = space  # "global" or "constant"
        flat = array.reshape(-1)
        self.elem = flat.view(dtype)
        self.raw = flat.view(np.uint8)
        self.nelems = self.elem.shape[0]
        self.nbytes = self.raw.shape[0]
        self.esize = dtype.itemsize
        self.readonly = readonly
        self.writeonly = writeonly
        self.writeable = bool(array.flags.writeable)


class LdsRegion:
    """One mem.lds_alloc: `count * pointee elements` elements per workgroup of the batch."""

    kind = "lds"

    def __init__(self, label: str, per_group: int, groups: int, dtype: np.dtype, pool_offset: int,
                 track_races: bool) -> None:
        self.label = label  # e.g. "mem.lds_alloc %3"
        self.pool_offset = pool_offset  # byte offset of the allocation in the workgroup's LDS
        self.per_group = per_group
        self.nelems = per_group
        self.esize = dtype.itemsize
        total = per_group * groups
        self.data = np.zeros(total, dtype)
        self.init = np.zeros(total, np.bool_)
        self.track = track_races
        if track_races:
            self.w_epoch = np.full(total, -1, np.int32)
            self.w_min = np.full(total, _NONE_THREAD_MIN, np.int16)
            self.w_max = np.full(total, _NONE_THREAD_MAX, np.int16)
            self.w_fence = np.zeros(total, np.int32)
            self.r_epoch = np.full(total, -1, np.int32)
            self.r_min = np.full(total, _NONE_THREAD_MIN, np.int16)
            self.r_max = np.full(total, _NONE_THREAD_MAX, np.int16)
            self.r_fence = np.zeros(total, np.int32)


def _element_range(start: np.ndarray, k: int) -> np.ndarray:
    return start[:, None] + np.arange(k, dtype=np.int64)


def check_bounds(region: GlobalRegion | LdsRegion, start: np.ndarray, k: int, lanes: np.ndarray, fail: Fail,
                 verb: str) -> None:
    """Every access [start, start + k) must lie in [0, region.nelems)."""
    bad = (start < 0) | (start + k > region.nelems)
    if bad.any():
        i = int(np.argmax(bad))
        s = int(start[i])
        where = "its bound array" if region.kind == "global" else "its allocation"
        fail(MemoryFault, f"{verb} elements {s}..{s + k - 1} of {region.label}, outside {where} of "
                          f"{region.nelems} elements", int(lanes[i]))


def global_gather(region: GlobalRegion, start: np.ndarray, k: int) -> np.ndarray:
    if k == 1:
        return region.elem[start][:, None]
    return region.elem[_element_range(start, k)]


def global_scatter(region: GlobalRegion, start: np.ndarray, values: np.ndarray) -> None:
    k = values.shape[1]
    if k == 1:
        region.elem[start] = values[:, 0]
    else:
        region.elem[_element_range(start, k)] = values


class LdsAccess:
    """The flat element indices of one LDS access and the identity of each touching thread.

    `thread` is the flat thread index in the workgroup, `wave` its wave index, `epoch` its
    workgroup's barrier interval and `fence` (None while no wave has executed a
    sync.wave_lds_fence in this batch) its wave's count of wave-level LDS fences.
    """

    def __init__(self, region: LdsRegion, group: np.ndarray, start: np.ndarray, k: int, thread: np.ndarray,
                 wave_size: int, epoch: np.ndarray, fence: np.ndarray | None) -> None:
        self.index = (group * region.per_group + start)[:, None] + np.arange(k, dtype=np.int64)  # (A, k)
        self.wave_size = wave_size
        self.thread = np.broadcast_to(thread.astype(np.int16)[:, None], self.index.shape)
        self._wave: np.ndarray | None = None
        self.epoch = np.broadcast_to(epoch[group][:, None], self.index.shape)
        self.fence = None if fence is None else np.broadcast_to(fence[:, None], self.index.shape)

    @property
    def wave(self) -> np.ndarray:
        """The wave index of each touching thread (computed when a check needs it)."""
        if self._wave is None:
            self._wave = self.thread // np.int16(self.wave_size)
        return self._wave


def lds_load(region: LdsRegion, acc: LdsAccess, lanes: np.ndarray, fail: Fail) -> np.ndarray:
    idx = acc.index
    init = region.init[idx]
    if not init.all():
        row = int(np.argmax(~init.all(axis=1)))
        col = int(np.argmax(~init[row]))
        elem = int(idx[row, col]) % region.per_group
        fail(UninitializedRead, f"reads element {elem} of {region.label}, which no store has written",
             int(lanes[row]))
    if region.track:
        _check(region, idx, acc, region.w_epoch, region.w_min, region.w_max, region.w_fence, lanes, fail,
               "reads", "written")
        _record(idx, acc, region.r_epoch, region.r_min, region.r_max, region.r_fence)
    return region.data[idx]


def lds_store(region: LdsRegion, acc: LdsAccess, values: np.ndarray, lanes: np.ndarray, fail: Fail) -> None:
    idx = acc.index
    if region.track:
        _check(region, idx, acc, region.r_epoch, region.r_min, region.r_max, region.r_fence, lanes, fail,
               "writes", "read")
        _check(region, idx, acc, region.w_epoch, region.w_min, region.w_max, region.w_fence, lanes, fail,
               "writes", "written")
        _record(idx, acc, region.w_epoch, region.w_min, region.w_max, region.w_fence)
        clash = region.w_min[idx] != region.w_max[idx]
        if clash.any():
            lo, hi = region.w_min[idx], region.w_max[idx]
            waves = clash & (lo // np.int16(acc.wave_size) != hi // np.int16(acc.wave_size))
            if waves.any():
                _race(region, idx, waves, lanes, fail, "writes", "written by another wave in the same store")
            _race(region, idx, clash, lanes, fail, "writes", "written by another lane of the same wave in the same "
                                                             "store")
    region.data[idx] = values
    region.init[idx] = True


def _check(region: LdsRegion, idx: np.ndarray, acc: LdsAccess, epoch: np.ndarray, lo: np.ndarray, hi: np.ndarray,
           fence: np.ndarray, lanes: np.ndarray, fail: Fail, verb: str, done: str) -> None:
    """Raise DataRace if another thread did `done` to an element in this barrier interval, unless it
    is a lane of the same wave and a sync.wave_lds_fence of that wave lies in between."""
    same = epoch[idx] == acc.epoch
    if not same.any():
        return
    t_lo, t_hi = lo[idx], hi[idx]
    other = same & ((t_lo != acc.thread) | (t_hi != acc.thread))
    if not other.any():
        return
    ws = np.int16(acc.wave_size)
    cross = other & ((t_lo // ws != acc.wave) | (t_hi // ws != acc.wave))
    if cross.any():
        _race(region, idx, cross, lanes, fail, verb, f"{done} by another wave")
    in_wave = other if acc.fence is None else other & (fence[idx] == acc.fence)
    if in_wave.any():
        _race(region, idx, in_wave, lanes, fail, verb, f"{done} by another lane of the same wave")


def _record(idx: np.ndarray, acc: LdsAccess, epoch: np.ndarray, lo: np.ndarray, hi: np.ndarray,
            fence: np.ndarray) -> None:
    """Fold this access's threads into an element's (epoch, min thread, max thread, fence) record.

    A record starts afresh in a new barrier interval, and - when only this thread's wave is in it
    - after a wave-level fence of that wave: what came before is ordered before this access.
    """
    stale = epoch[idx] != acc.epoch
    if acc.fence is not None:
        ws = np.int16(acc.wave_size)
        fenced = ((fence[idx] != acc.fence) & (lo[idx] // ws == acc.wave) & (hi[idx] // ws == acc.wave))
        stale |= fenced
        fence[idx] = acc.fence
    if stale.any():
        s = idx[stale]
        lo[s] = _NONE_THREAD_MIN
        hi[s] = _NONE_THREAD_MAX
        epoch[s] = acc.epoch[stale]
    flat = idx.reshape(-1)
    threads = np.ascontiguousarray(acc.thread).reshape(-1)
    np.minimum.at(lo, flat, threads)
    np.maximum.at(hi, flat, threads)


def _race(region: LdsRegion, idx: np.ndarray, bad: np.ndarray, lanes: np.ndarray, fail: Fail, verb: str,
          why: str) -> NoReturn:
    row = int(np.argmax(bad.any(axis=1)))
    col = int(np.argmax(bad[row]))
    elem = int(idx[row, col]) % region.per_group
    fix = "sync.barrier or sync.wave_lds_fence" if "same wave" in why else "sync.barrier"
    fail(DataRace, f"{verb} element {elem} of {region.label}, {why} since the last barrier "
                   f"(a missing {fix})", int(lanes[row]))
