"""Reductions across lanes (shuffle-xor butterflies) and across the waves of a workgroup (LDS)."""

from __future__ import annotations

from rocke.ir import Builder, Value, f32

from .index import const_i32

REDUCE_KINDS = ("add", "max")


def combine(b: Builder, kind: str, x: Value, y: Value, *, name: str | None = None) -> Value:
    """x + y or max(x, y) for f32 or i32 scalars."""
    if kind == "add":
        return b.add(x, y, name=name)
    if x.type == f32:
        return b.maxf(x, y, name=name)
    return b.maxs(x, y, name=name)


def wave_reduce(b: Builder, x: Value, kind: str, width: int, *, name: str | None = None) -> Value:
    """Reduce x (f32 or i32) over aligned groups of `width` lanes (a power of two, at least 2 and at
    most the wave size); every lane of a group gets the group's result."""
    step = width // 2
    while step >= 1:
        x = combine(b, kind, x, b.shuffle_xor(x, step), name=name)
        step //= 2
    return x


def block_reduce(
    b: Builder, x: Value, kind: str, partials: Value, wave_size: int, waves: int, *, name: str | None = None
) -> Value:
    """Reduce x over a workgroup of `waves` waves; every lane gets the result. partials is an LDS
    allocation of at least `waves` elements of x's type. Ends with a barrier, so partials may be
    reused right after."""
    total = wave_reduce(b, x, kind, wave_size)
    wave = b.wave_id(name="wave")
    lane = b.lane_id(name="lane")
    b.if_(b.cmpi("eq", lane, const_i32(b, 0)), lambda: b.lds_store(partials, wave, total))
    b.barrier()
    result = b.lds_load(partials, const_i32(b, 0))
    for w in range(1, waves):
        result = combine(b, kind, result, b.lds_load(partials, const_i32(b, w)), name=name)
    b.barrier()
    return result
