"""rocke.helpers tiles and lds: tile splits cover every element exactly once; padded tile sizes."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rocke.helpers import LDS_ALIGN, PaddedTile, split_tile, tile_access
from rocke.ir import Builder, i32, ptr
from rocke.sim import run


def _covered(split) -> list[int]:
    """Host replay of tile_access: how often each element of the tile is touched."""
    counts = [0] * (split.lines * split.extent)
    vpl = split.vecs_per_line
    for t in range(split.threads):
        for i in range(split.per_thread):
            v = t + i * split.threads
            line, first = v // vpl, (v % vpl) * split.vec
            for j in range(split.vec):
                counts[line * split.extent + first + j] += 1
    return counts


@given(st.sampled_from([8, 16, 32, 64, 128]), st.sampled_from([8, 16, 32, 48, 64, 128]),
       st.sampled_from([32, 64, 128, 256, 512]), st.sampled_from([2, 4]))
@settings(max_examples=150, deadline=None)
def test_split_covers_every_element_once(lines: int, extent: int, threads: int, esize: int) -> None:
    split = split_tile(lines, extent, threads, esize)
    if split is None:
        assert (lines * extent) % threads != 0 or all(
            extent % v or (lines * extent // v) % threads for v in (1, 2, 4, 8)
        )
        return
    assert split.vec * esize <= 16 and extent % split.vec == 0
    assert split.per_thread * threads * split.vec == lines * extent
    assert _covered(split) == [1] * (lines * extent)


def test_split_prefers_wide_vectors() -> None:
    assert split_tile(64, 32, 256, 2).vec == 8
    assert split_tile(32, 16, 256, 2).vec == 2
    assert split_tile(64, 32, 256, 4).vec == 4
    assert split_tile(16, 16, 512, 2) is None


def test_tile_access_ir_matches_the_host_replay() -> None:
    split = split_tile(16, 24, 64, 2)
    assert split is not None and split.vec == 2 and split.per_thread == 3
    b = Builder("tile_access", max_workgroup_size=64)
    out = b.param("out", ptr(i32, "global"))
    tid = b.thread_id_x()
    for i in range(split.per_thread):
        line, first = tile_access(b, split, tid, i)
        index = b.add(b.mul(b.const(i * 64, i32), b.const(2, i32)), b.mul(tid, b.const(2, i32)))
        b.store(out, index, line)
        b.store(out, b.add(index, b.const(1, i32)), first)
    got = np.zeros(split.per_thread * 64 * 2, np.int32)
    run(b.finish(), arch="gfx942", grid=1, block=64, args=[got])
    vpl = split.vecs_per_line
    expected = []
    for i in range(split.per_thread):
        for t in range(64):
            v = t + i * 64
            expected += [v // vpl, (v % vpl) * split.vec]
    assert got.tolist() == expected


def test_padded_tile() -> None:
    tile = PaddedTile(rows=64, cols=32, pad=4, stages=2)
    assert (tile.stride, tile.stage_elems, tile.count) == (36, 2304, 4608)
    assert tile.nbytes(2) == 9216
    assert PaddedTile(3, 2, 0, 1).nbytes(2) == LDS_ALIGN  # rounded up to the allocation alignment
