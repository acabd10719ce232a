"""Exact float handling: binary64 bit patterns and round-to-nearest-even into narrower formats.

Float attribute values are stored as Python floats (binary64) holding a value that is exactly
representable in the attribute's type; the text format writes the binary64 bit pattern as 16
upper-case hex digits. NaN is always the single canonical quiet NaN so bit patterns compare.
"""

from __future__ import annotations

import math
import struct

CANONICAL_NAN_BITS = 0x7FF8000000000000
CANONICAL_NAN: float = struct.unpack(">d", CANONICAL_NAN_BITS.to_bytes(8, "big"))[0]


def float_to_bits(value: float) -> int:
    """binary64 bit pattern of value (NaN canonicalized)."""
    if value != value:
        return CANONICAL_NAN_BITS
    return int.from_bytes(struct.pack(">d", value), "big")


def bits_to_float(bits: int) -> float:
    """Inverse of float_to_bits for 0 <= bits < 2**64."""
    return struct.unpack(">d", bits.to_bytes(8, "big"))[0]


def format_float_hex(value: float) -> str:
    """Text form of a float attribute: 0x + 16 upper-case hex digits (printf("0x%016llX"))."""
    return f"0x{float_to_bits(value):016X}"


def round_to_format(value: float, exp_bits: int, man_bits: int) -> float:
    """Round a binary64 value to nearest-even in an IEEE format with the given field widths.

    Overflow gives a signed infinity, underflow keeps subnormals, NaN becomes the canonical NaN.
    The result is returned as a binary64 value (exact, since the target format is narrower).
    """
    if value != value:
        return CANONICAL_NAN
    if value == 0.0 or math.isinf(value):
        return value
    bias = (1 << (exp_bits - 1)) - 1
    min_normal_exp = 1 - bias
    magnitude = abs(value)
    _, exp2 = math.frexp(magnitude)  # magnitude = m * 2**exp2 with 0.5 <= m < 1
    unbiased = exp2 - 1
    if unbiased > bias:
        return math.copysign(math.inf, value)
    quantum_exp = max(unbiased, min_normal_exp) - man_bits  # one unit in the last place
    scaled = math.ldexp(magnitude, -quantum_exp)  # exact: only the exponent changes
    units = round(scaled)  # round() of a float is exact and ties to even
    if units >= 1 << (bias + 1 - quantum_exp):  # carried past the largest finite value
        return math.copysign(math.inf, value)
    return math.copysign(math.ldexp(float(units), quantum_exp), value)


def is_representable(value: float, exp_bits: int, man_bits: int) -> bool:
    """True when value (binary64) survives rounding to the format unchanged, bit for bit."""
    return float_to_bits(round_to_format(value, exp_bits, man_bits)) == float_to_bits(value)
