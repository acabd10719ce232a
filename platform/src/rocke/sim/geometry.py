"""Launch geometry: which workgroups run together and what each lane's ids are.

A workgroup of block = (bx, by, bz) threads has ceil(bx * by * bz / wave_size) waves. Its lanes
are laid out wave by wave and padded to whole waves; padding lanes do not exist (they are never
active) so cross-lane ops see them as inactive lanes. A batch is a run of consecutive workgroups
(x fastest, then y, then z) simulated together in lockstep, one array element per lane.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .errors import LaunchError

I32_MAX = 2**31 - 1


def dims3(value: int | Sequence[int], what: str) -> tuple[int, int, int]:
    """Normalize an int or a sequence of 1 to 3 ints to (x, y, z), each at least 1."""
    if isinstance(value, int | np.integer):
        items = [value]
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        raise LaunchError("launch", f"{what} must be an int or 1 to 3 ints, got {type(value).__name__}")
    if not 1 <= len(items) <= 3:
        raise LaunchError("launch", f"{what} must be an int or 1 to 3 ints, got {len(items)} values")
    out = []
    for item in items:
        if isinstance(item, bool) or not isinstance(item, int | np.integer):
            raise LaunchError("launch", f"{what} must hold ints, got {type(item).__name__}")
        if not 1 <= int(item) <= I32_MAX:
            raise LaunchError("launch", f"{what} dimensions must be in 1..{I32_MAX}, got {int(item)}")
        out.append(int(item))
    while len(out) < 3:
        out.append(1)
    return out[0], out[1], out[2]


@dataclass(frozen=True)
class Launch:
    grid: tuple[int, int, int]  # workgroups per dimension
    block: tuple[int, int, int]  # threads per workgroup per dimension
    wave_size: int

    @property
    def threads(self) -> int:
        return self.block[0] * self.block[1] * self.block[2]

    @property
    def waves_per_group(self) -> int:
        return -(-self.threads // self.wave_size)

    @property
    def lanes_per_group(self) -> int:
        return self.waves_per_group * self.wave_size

    @property
    def groups(self) -> int:
        return self.grid[0] * self.grid[1] * self.grid[2]

    def group_ids(self, flat: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        gx, gy, _ = self.grid
        return flat % gx, (flat // gx) % gy, flat // (gx * gy)


class Batch:
    """Per-lane ids of workgroups first .. first + count - 1 of a launch."""

    def __init__(self, launch: Launch, first: int, count: int) -> None:
        self.launch = launch
        self.first = first
        self.groups = count
        lpg = launch.lanes_per_group
        self.lanes = count * lpg
        ws = launch.wave_size
        bx, by, _ = launch.block
        local = np.arange(self.lanes, dtype=np.int64)
        self.group = local // lpg  # workgroup index within the batch
        flat_tid = local % lpg
        self.exists = flat_tid < launch.threads  # False on padding lanes of a partial last wave
        self.tid = (flat_tid % bx, (flat_tid // bx) % by, flat_tid // (bx * by))
        gid = launch.group_ids(self.group + first)
        self.bid = gid
        self.thread_in_group = flat_tid
        self.lane_id = flat_tid % ws
        self.wave_in_group = flat_tid // ws
        self.waves = count * launch.waves_per_group  # waves in the batch

    def describe(self, lane: int) -> str:
        """`workgroup (X, Y, Z) thread (X, Y, Z)` of a lane of this batch."""
        b = tuple(int(v[lane]) for v in self.bid)
        t = tuple(int(v[lane]) for v in self.tid)
        return f"workgroup ({b[0]}, {b[1]}, {b[2]}) thread ({t[0]}, {t[1]}, {t[2]})"

    def describe_group(self, group: int) -> str:
        lane = group * self.launch.lanes_per_group
        b = tuple(int(v[lane]) for v in self.bid)
        return f"workgroup ({b[0]}, {b[1]}, {b[2]})"

    def describe_wave(self, wave: int) -> str:
        lane = wave * self.launch.wave_size
        return f"wave {int(self.wave_in_group[lane])} of {self.describe_group(int(self.group[lane]))}"
