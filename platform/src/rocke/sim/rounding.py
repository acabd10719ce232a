"""Exact rounding into f16, bf16 and f32 (round to nearest, ties to even).

Single ops (+ - * / sqrt) on f16 and bf16 are computed in float32 and rounded once more: float32
has at least 2p + 2 significand bits for both (p = 11 and 8), so the double rounding is
innocuous and the result is the correctly rounded one. Everything else - fma, int to float,
the math functions - is first held as an exact or near-exact binary64 pair and rounded with
round-to-odd steps, which make a chain of roundings equal to one rounding as long as every
intermediate format has at least two more bits than the next:

    (hi, lo) binary64 pair --odd--> binary64 --odd--> binary32 --nearest-even--> target

(numpy's float64 -> float32 and float32 -> float16 casts, and ml_dtypes' float32 -> bfloat16
cast, are correctly rounded; ml_dtypes' float64 -> bfloat16 cast is not, hence the odd step.)
"""

from __future__ import annotations

import numpy as np

from .dtypes import BF16

F16 = np.dtype(np.float16)
F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)


def two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(s, e) with s = fl(a + b) and s + e == a + b exactly (Knuth's TwoSum, binary64)."""
    s = a + b
    bp = s - a
    ap = s - bp
    e = (a - ap) + (b - bp)
    return s, e


def _odd64(s: np.ndarray, e: np.ndarray) -> np.ndarray:
    """Round-to-odd of the exact value s + e (s already the nearest binary64) into binary64."""
    bits = s.view(np.uint64)
    adjust = (e != 0) & ((bits & np.uint64(1)) == 0) & np.isfinite(s)
    if not adjust.any():
        return s
    toward = np.where(e > 0, np.inf, -np.inf)
    return np.where(adjust, np.nextafter(s, toward), s)


def _odd32(x: np.ndarray) -> np.ndarray:
    """Round-to-odd of binary64 values into binary32 (an overflow gives the largest finite)."""
    f = x.astype(F32)
    inexact = (f.astype(F64) != x) & ~np.isnan(x)
    adjust = inexact & ((f.view(np.uint32) & np.uint32(1)) == 0)
    if not adjust.any():
        return f
    toward = np.where(x > f.astype(F64), np.float32(np.inf), np.float32(-np.inf))
    return np.where(adjust, np.nextafter(f, toward), f)


def round_pair(hi: np.ndarray, lo: np.ndarray | None, dtype: np.dtype) -> np.ndarray:
    """Correctly round the exact value hi + lo (binary64 arrays, |lo| <= ulp(hi) / 2) to dtype."""
    hi = np.asarray(hi, dtype=F64)
    with np.errstate(over="ignore", invalid="ignore"):  # overflow to infinity is the rounding's result
        x = hi if lo is None else _odd64(hi, np.asarray(lo, dtype=F64))
        if dtype == F64:
            return x
        if dtype == F32:
            return x.astype(F32)
        narrow = _odd32(x)
        if dtype == F16:
            return narrow.astype(F16)
        if dtype == BF16:
            return narrow.astype(BF16)
    raise AssertionError(f"round_pair: not a float dtype: {dtype}")


def round_f64(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Round binary64 values to dtype once (nearest, ties to even)."""
    return round_pair(x, None, dtype)


def fma(a: np.ndarray, b: np.ndarray, c: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """a * b + c with a single rounding to dtype (f16, bf16 or f32 inputs).

    The product of two values with at most 24 significand bits is exact in binary64; TwoSum
    then gives the exact sum as a pair, which round_pair rounds once.
    """
    with np.errstate(invalid="ignore"):
        prod = a.astype(F64) * b.astype(F64)
        hi, lo = two_sum(prod, c.astype(F64))
    # inf - inf in TwoSum's correction gives NaN where the sum itself is fine (an overflowing
    # product); the correction is meaningless there, so drop it.
    lo = np.where(np.isfinite(hi), lo, 0.0)
    return round_pair(hi, lo, dtype)


def int_to_float(x: np.ndarray, unsigned: bool, dtype: np.dtype) -> np.ndarray:
    """Integers (any numpy integer array) to a float dtype with one rounding."""
    if x.dtype.itemsize < 8:
        return round_pair(x.astype(F64), None, dtype)
    # 64-bit: split into exactly representable halves and add them exactly.
    u = x.view(np.uint64)
    low = (u & np.uint64(0xFFFFFFFF)).astype(F64)
    high_bits = u >> np.uint64(32)
    high = high_bits.astype(F64) if unsigned else high_bits.astype(np.uint32).view(np.int32).astype(F64)
    hi, lo = two_sum(high * 4294967296.0, low)
    return round_pair(hi, lo, dtype)


def float_to_int(x: np.ndarray, lo: int, hi: int, out_dtype: np.dtype) -> np.ndarray:
    """Truncate toward zero and saturate into [lo, hi]; NaN gives 0 (the AMDGPU v_cvt_* rule)."""
    t = np.trunc(x.astype(F64))
    nan = np.isnan(t)
    below = t < float(lo)
    above = t >= float(hi + 1)  # hi + 1 is a power of two, exact in binary64
    safe = np.where(nan | below | above, 0.0, t)
    if out_dtype == np.dtype(np.uint64):
        out = safe.astype(np.uint64)
    else:
        out = safe.astype(np.int64)
    out = np.where(below, lo, out)
    out = np.where(above, hi, out)
    return out.astype(out_dtype) if out.dtype != out_dtype else out
