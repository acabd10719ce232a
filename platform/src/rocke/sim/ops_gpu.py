"""gpu.*: thread, workgroup, lane and wave ids of each lane (i32)."""

from __future__ import annotations

import numpy as np

from rocke.ir import Op

from .machine import Machine, Mask, handler_table

HANDLERS, handles = handler_table()


def _ids(m: Machine, key: str) -> np.ndarray:
    """Per-lane id arrays, made once per batch (values are never modified in place)."""
    cache = m.id_cache
    if key not in cache:
        b = m.batch
        block = b.launch.block
        source = {
            "tx": b.tid[0], "ty": b.tid[1], "tz": b.tid[2],
            "bx": b.bid[0], "by": b.bid[1], "bz": b.bid[2],
            "dx": np.full(b.lanes, block[0]), "dy": np.full(b.lanes, block[1]), "dz": np.full(b.lanes, block[2]),
            "lane": b.lane_id, "wave": b.wave_in_group, "ws": np.full(b.lanes, m.arch.wave_size),
        }[key]
        cache[key] = source.astype(np.int32)
    return cache[key]


def _id_op(key: str):
    def handler(m: Machine, op: Op, mask: Mask):
        return (_ids(m, key),)

    return handler


for _name, _key in (
    ("gpu.thread_id_x", "tx"), ("gpu.thread_id_y", "ty"), ("gpu.thread_id_z", "tz"),
    ("gpu.block_id_x", "bx"), ("gpu.block_id_y", "by"), ("gpu.block_id_z", "bz"),
    ("gpu.block_dim_x", "dx"), ("gpu.block_dim_y", "dy"), ("gpu.block_dim_z", "dz"),
    ("gpu.lane_id", "lane"), ("gpu.wave_id", "wave"), ("gpu.wave_size", "ws"),
):
    handles(_name)(_id_op(_key))
