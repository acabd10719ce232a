"""Splitting a tile over the threads of a workgroup for vectorized global <-> LDS copies.

A tile is `lines` lines of `extent` contiguous elements. Each access moves `vec` elements of one
line; access v (0 .. lines * extent / vec - 1) covers line v / (extent / vec), elements
(v % (extent / vec)) * vec ... Thread t makes accesses t, t + threads, t + 2 * threads, ..., so
consecutive threads touch consecutive addresses (coalesced).
"""

from __future__ import annotations

from dataclasses import dataclass

from rocke.ir import Builder, Value

from .index import add_i32, divu_i32, mul_i32, remu_i32

VEC_CHOICES = (8, 4, 2, 1)


@dataclass(frozen=True)
class TileSplit:
    lines: int
    extent: int  # contiguous elements per line
    threads: int
    vec: int  # elements per access
    per_thread: int  # accesses per thread

    @property
    def vecs_per_line(self) -> int:
        return self.extent // self.vec


def split_tile(lines: int, extent: int, threads: int, esize: int, max_bytes: int = 16) -> TileSplit | None:
    """The widest vector (at most max_bytes, dividing extent) whose access count is a multiple of
    threads, so every thread makes the same number of accesses; None when no width works."""
    for vec in VEC_CHOICES:
        if vec * esize > max_bytes or extent % vec != 0:
            continue
        count = lines * extent // vec
        if count % threads == 0:
            return TileSplit(lines, extent, threads, vec, count // threads)
    return None


def tile_access(b: Builder, split: TileSplit, tid: Value, i: int) -> tuple[Value, Value]:
    """(line, first element) of thread tid's i-th access."""
    v = add_i32(b, tid, i * split.threads)
    vpl = split.vecs_per_line
    line = divu_i32(b, v, vpl, name="line")
    first = mul_i32(b, remu_i32(b, v, vpl), split.vec, name="elem")
    return line, first
