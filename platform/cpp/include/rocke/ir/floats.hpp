// rocKE C++ engine: exact float handling (binary64 bit patterns, round to nearest even).
// Python twin: rocke/ir/floats.py
//
// Float attribute values are binary64 values exactly representable in the attribute's type;
// the text format writes the bit pattern as 16 upper-case hex digits. NaN is always the single
// canonical quiet NaN so bit patterns compare.
#pragma once

#include <cstdint>
#include <string>

namespace rocke::ir {

inline constexpr std::uint64_t kCanonicalNanBits = 0x7FF8000000000000ULL;

// binary64 bit pattern of value (NaN canonicalized).
std::uint64_t float_to_bits(double value);
// Inverse of float_to_bits.
double bits_to_float(std::uint64_t bits);
// Text form of a float attribute: 0x + 16 upper-case hex digits.
std::string format_float_hex(double value);
// Round value to nearest-even in an IEEE format with these field widths (overflow gives a
// signed infinity, subnormals are kept, NaN becomes the canonical NaN).
double round_to_format(double value, int exp_bits, int man_bits);
// value survives rounding to the format unchanged, bit for bit.
bool is_representable(double value, int exp_bits, int man_bits);

}  // namespace rocke::ir
