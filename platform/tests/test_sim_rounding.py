"""rocke.sim.rounding against an exact reference: rationals rounded to nearest-even by hand."""

from __future__ import annotations

from fractions import Fraction

import ml_dtypes
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rocke.sim import rounding

FORMATS = {  # dtype: (exponent bits, mantissa bits)
    np.dtype(np.float16): (5, 10),
    np.dtype(ml_dtypes.bfloat16): (8, 7),
    np.dtype(np.float32): (8, 23),
}


def round_exact(q: Fraction, dtype: np.dtype) -> float:
    """Round a rational to nearest-even in dtype's format, returned as a Python float."""
    exp_bits, man_bits = FORMATS[dtype]
    if q == 0:
        return 0.0
    sign = -1.0 if q < 0 else 1.0
    mag = abs(q)
    bias = (1 << (exp_bits - 1)) - 1
    e = mag.numerator.bit_length() - mag.denominator.bit_length()
    if Fraction(2) ** e > mag:
        e -= 1
    quantum_exp = max(e, 1 - bias) - man_bits
    scaled = mag / Fraction(2) ** quantum_exp
    units = scaled.numerator // scaled.denominator
    rest = scaled - units
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and units % 2 == 1):
        units += 1
    if units * Fraction(2) ** quantum_exp >= Fraction(2) ** (bias + 1):
        return sign * float("inf")
    return sign * float(units * Fraction(2) ** quantum_exp)


def finite_values(dtype: np.dtype) -> st.SearchStrategy[float]:
    """Finite values of dtype, drawn through their bit patterns (all exponents equally likely)."""
    bits = dtype.itemsize * 8

    def decode(raw: int) -> float:
        return float(np.array([raw], dtype=f"u{bits // 8}").view(dtype)[0])

    return st.integers(0, (1 << bits) - 1).map(decode).filter(np.isfinite)


def _same(got: float, want: float) -> bool:
    return (got == want and np.signbit(got) == np.signbit(want)) or (np.isnan(got) and np.isnan(want))


@settings(max_examples=150, deadline=None)
@given(data=st.data(), dtype=st.sampled_from(list(FORMATS)))
def test_fma_rounds_once(data: st.DataObject, dtype: np.dtype) -> None:
    a, b, c = (data.draw(finite_values(dtype)) for _ in range(3))
    got = rounding.fma(*(np.array([v], dtype) for v in (a, b, c)), dtype)
    assert got.dtype == dtype
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    want = round_exact(exact, dtype)
    if exact == 0:  # the sign of an exact zero sum follows IEEE rules; the value is what matters
        assert float(got[0]) == 0.0
    else:
        assert _same(float(got[0]), want), (a, b, c, float(got[0]), want)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), dtype=st.sampled_from(list(FORMATS)))
def test_fma_hard_midpoints(data: st.DataObject, dtype: np.dtype) -> None:
    """a * b lands exactly on a rounding midpoint of c's neighborhood plus a tiny excess."""
    _, man_bits = FORMATS[dtype]
    c = 1.0 + data.draw(st.integers(0, (1 << man_bits) - 1)) * 2.0 ** -man_bits
    a = 2.0 ** -(man_bits + 1)
    b = 1.0 + data.draw(st.sampled_from([0.0, 2.0 ** -man_bits, -(2.0 ** -(man_bits + 1))]))
    got = float(rounding.fma(*(np.array([v], dtype) for v in (a, b, c)), dtype)[0])
    assert got == round_exact(Fraction(a) * Fraction(b) + Fraction(c), dtype)


@settings(max_examples=150, deadline=None)
@given(value=st.integers(-(2**63), 2**64 - 1), dtype=st.sampled_from(list(FORMATS)))
def test_int_to_float_rounds_once(value: int, dtype: np.dtype) -> None:
    unsigned = value >= 2**63
    array = np.array([value], np.uint64 if unsigned else np.int64)
    got = float(rounding.int_to_float(array, unsigned, dtype)[0])
    assert got == round_exact(Fraction(value), dtype)


def test_round_pair_avoids_double_rounding_into_bf16() -> None:
    # 1 + 2^-8 + 2^-30 rounds up in bf16, but via float32 it first becomes the tie 1 + 2^-8,
    # which rounds to even (down): one rounding is required.
    value = np.array([1 + 2.0**-8 + 2.0**-30])
    assert float(rounding.round_f64(value, np.dtype(ml_dtypes.bfloat16))[0]) == 1 + 2.0**-7
    assert float(value.astype(np.float32).astype(ml_dtypes.bfloat16)[0]) == 1.0  # what double rounding gives


def test_round_pair_overflow_and_specials() -> None:
    bf16 = np.dtype(ml_dtypes.bfloat16)
    big = np.array([3.4e38, -3.4e38, np.inf, np.nan, 1e-45, -0.0])
    got = rounding.round_f64(big, bf16).astype(np.float64)
    assert got[0] == np.inf and got[1] == -np.inf and got[2] == np.inf and np.isnan(got[3])
    assert got[4] == 0.0 and np.signbit(got[5])
    f16 = rounding.round_f64(np.array([65520.0, 65519.99, 2.0**-25, 2.0**-25 * 1.0001]), np.dtype(np.float16))
    assert list(f16.astype(np.float64)) == [np.inf, 65504.0, 0.0, 2.0**-24]


def test_float_to_int_saturates_and_truncates() -> None:
    x = np.array([np.nan, -np.inf, np.inf, -2.5, 2.5, 2.0**31, -(2.0**31) - 1, 1e30, -0.9])
    got = rounding.float_to_int(x, -(2**31), 2**31 - 1, np.dtype(np.int64))
    assert list(got) == [0, -(2**31), 2**31 - 1, -2, 2, 2**31 - 1, -(2**31), 2**31 - 1, 0]
    got = rounding.float_to_int(np.array([2.0**64, 2.0**63, -1.0, 1.5]), 0, 2**64 - 1, np.dtype(np.uint64))
    assert list(got) == [2**64 - 1, 2**63, 0, 1]
