"""Index math: i32 arithmetic with host-time constant folding, and host-side integer facts.

Helpers that take a host int fold the trivial cases at build time (adding 0, multiplying by 1), so
the IR never holds them; a C++ twin folds the same cases.
"""

from __future__ import annotations

from rocke.ir import Builder, Value, i32


def ceil_div(a: int, b: int) -> int:
    """Host ceil(a / b) for a >= 0, b > 0."""
    return -(-a // b)


def pow2_factor(value: int) -> int:
    """The largest power of two dividing value (value > 0)."""
    return value & -value


def gcd_all(values: list[int]) -> int:
    """Greatest common divisor of the values (0 for an empty list or all zeros)."""
    result = 0
    for value in values:
        a, b = abs(result), abs(value)
        while b:
            a, b = b, a % b
        result = a
        if result == 1:  # no later value lowers it (an alignment sweep adds a term per lane)
            break
    return result


def guaranteed_align(esize: int, cap: int, multiples: list[int]) -> int:
    """Byte alignment promised for an access whose element index is a sum of multiples of the given
    element counts (a 0 adds no constraint): the largest power of two dividing the byte offset,
    at least esize and at most cap."""
    step = gcd_all(multiples) * esize
    align = cap if step == 0 else min(cap, pow2_factor(step))
    return max(align, esize)


def const_i32(b: Builder, value: int, *, name: str | None = None) -> Value:
    return b.const(value, i32, name=name)


def add_i32(b: Builder, x: Value, c: int, *, name: str | None = None) -> Value:
    """x + c; x itself when c == 0 (and no name is asked for)."""
    if c == 0 and name is None:
        return x
    return b.add(x, const_i32(b, c), name=name)


def mul_i32(b: Builder, x: Value, c: int, *, name: str | None = None) -> Value:
    """x * c; x itself when c == 1 (and no name is asked for)."""
    if c == 1 and name is None:
        return x
    return b.mul(x, const_i32(b, c), name=name)


def divu_i32(b: Builder, x: Value, d: int, *, name: str | None = None) -> Value:
    """x / d (unsigned, d > 0); x itself when d == 1 (and no name is asked for)."""
    if d == 1 and name is None:
        return x
    return b.divu(x, const_i32(b, d), name=name)


def remu_i32(b: Builder, x: Value, d: int, *, name: str | None = None) -> Value:
    """x % d (unsigned, d > 0); the constant 0 when d == 1."""
    if d == 1:
        return const_i32(b, 0, name=name)
    return b.remu(x, const_i32(b, d), name=name)


def ceil_div_i32(b: Builder, x: Value, d: int, *, name: str | None = None) -> Value:
    """ceil(x / d) for x >= 0 (device), d > 0 (host)."""
    if d == 1:
        return x
    return b.divu(add_i32(b, x, d - 1), const_i32(b, d), name=name)


def global_id_x(b: Builder, block: int, *, name: str = "gid") -> Value:
    """block_id_x * block + thread_id_x for a 1D launch of `block` threads per workgroup."""
    base = mul_i32(b, b.block_id_x(name="bid"), block)
    return b.add(base, b.thread_id_x(name="tid"), name=name)
