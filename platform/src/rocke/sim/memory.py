"""Memory regions: global/constant buffers bound to the caller's arrays, and LDS allocations.

A region is a flat array of its pointer type's scalar element (a pointer param's numpy array
viewed flat, or one LDS allocation per workgroup). Accesses are checked before they happen:

* global / constant: every element an active lane touches must lie inside the bound array
  (MemoryFault otherwise); global memory is always initialized (the caller filled it).
* LDS: inside the allocation (MemoryFault), every element read must have been written
  (UninitializedRead), and - unless race checking is off - no two waves of a workgroup may touch
  an element, one of them writing, within one barrier interval (DataRace). The simulator runs
  all waves in lockstep, which would hide a missing barrier; the race check makes it visible.

Race tracking is per element and per workgroup: for the current barrier interval ("epoch", one
counter per workgroup, advanced by sync.barrier) each element remembers the smallest and largest
wave index that wrote it and that read it. A wave may freely reread and rewrite what it alone
touched in the current epoch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

import numpy as np

from .errors import DataRace, MemoryFault, SimError, UninitializedRead

Fail = Callable[[type[SimError], str, int | None], NoReturn]

_NONE_WAVE_MIN = np.int8(127)
_NONE_WAVE_MAX = np.int8(-1)


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
            self.w_min = np.full(total, _NONE_WAVE_MIN, np.int8)
            self.w_max = np.full(total, _NONE_WAVE_MAX, np.int8)
            self.r_epoch = np.full(total, -1, np.int32)
            self.r_min = np.full(total, _NONE_WAVE_MIN, np.int8)
            self.r_max = np.full(total, _NONE_WAVE_MAX, np.int8)


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
    """The flat element indices of one LDS access and the identity of each touching wave."""

    def __init__(self, region: LdsRegion, group: np.ndarray, start: np.ndarray, k: int, wave: np.ndarray,
                 epoch: np.ndarray) -> None:
        self.index = (group * region.per_group + start)[:, None] + np.arange(k, dtype=np.int64)  # (A, k)
        self.wave = np.broadcast_to(wave.astype(np.int8)[:, None], self.index.shape)
        self.epoch = np.broadcast_to(epoch[group][:, None], self.index.shape)


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
        same = region.w_epoch[idx] == acc.epoch
        if same.any():
            other = same & ((region.w_min[idx] != acc.wave) | (region.w_max[idx] != acc.wave))
            if other.any():
                _race(region, idx, other, lanes, fail, "reads", "written by another wave")
        _record(idx, acc, region.r_epoch, region.r_min, region.r_max)
    return region.data[idx]


def lds_store(region: LdsRegion, acc: LdsAccess, values: np.ndarray, lanes: np.ndarray, fail: Fail) -> None:
    idx = acc.index
    if region.track:
        read = region.r_epoch[idx] == acc.epoch
        if read.any():
            other = read & ((region.r_min[idx] != acc.wave) | (region.r_max[idx] != acc.wave))
            if other.any():
                _race(region, idx, other, lanes, fail, "writes", "read by another wave")
        written = region.w_epoch[idx] == acc.epoch
        if written.any():
            other = written & ((region.w_min[idx] != acc.wave) | (region.w_max[idx] != acc.wave))
            if other.any():
                _race(region, idx, other, lanes, fail, "writes", "written by another wave")
        _record(idx, acc, region.w_epoch, region.w_min, region.w_max)
        clash = region.w_min[idx] != region.w_max[idx]
        if clash.any():
            _race(region, idx, clash, lanes, fail, "writes", "written by another wave in the same store")
    region.data[idx] = values
    region.init[idx] = True


def _record(idx: np.ndarray, acc: LdsAccess, epoch: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> None:
    """Fold this access's waves into an element's (epoch, min wave, max wave) record."""
    stale = epoch[idx] != acc.epoch
    if stale.any():
        s = idx[stale]
        lo[s] = _NONE_WAVE_MIN
        hi[s] = _NONE_WAVE_MAX
        epoch[s] = acc.epoch[stale]
    flat = idx.reshape(-1)
    waves = np.ascontiguousarray(acc.wave).reshape(-1)
    np.minimum.at(lo, flat, waves)
    np.maximum.at(hi, flat, waves)


def _race(region: LdsRegion, idx: np.ndarray, bad: np.ndarray, lanes: np.ndarray, fail: Fail, verb: str,
          why: str) -> NoReturn:
    row = int(np.argmax(bad.any(axis=1)))
    col = int(np.argmax(bad[row]))
    elem = int(idx[row, col]) % region.per_group
    fail(DataRace, f"{verb} element {elem} of {region.label}, {why} since the last barrier "
                   "(a missing sync.barrier)", int(lanes[row]))
