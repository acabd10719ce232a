// Python twin: rocke/ir/floats.py
#include "rocke/ir/floats.hpp"

#include <bit>
#include <cmath>
#include <cstdint>

namespace rocke::ir {

namespace {

// Python's round() of a float: nearest integer, ties to even (exact for |x| < 2**53).
double round_half_even(double x) {
  double floor = std::floor(x);
  double diff = x - floor;
  if (diff > 0.5) return floor + 1.0;
  if (diff < 0.5) return floor;
  return std::fmod(floor, 2.0) == 0.0 ? floor : floor + 1.0;
}

}  // namespace

std::uint64_t float_to_bits(double value) {
  if (std::isnan(value)) return kCanonicalNanBits;
  return std::bit_cast<std::uint64_t>(value);
}

double bits_to_float(std::uint64_t bits) { return std::bit_cast<double>(bits); }

std::string format_float_hex(double value) {
  // "0x%016llX" of the bits, spelled here: snprintf costs more than the rest of a constant's lowering.
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::uint64_t bits = float_to_bits(value);
  std::string out(18, '0');
  out[1] = 'x';
  for (std::size_t i = 17; i >= 2; --i, bits >>= 4) out[i] = kDigits[bits & 0xF];
  return out;
}

double round_to_format(double value, int exp_bits, int man_bits) {
  if (std::isnan(value)) return bits_to_float(kCanonicalNanBits);
  if (value == 0.0 || std::isinf(value)) return value;
  const int bias = (1 << (exp_bits - 1)) - 1;
  const int min_normal_exp = 1 - bias;
  const double magnitude = std::fabs(value);
  int exp2 = 0;
  std::frexp(magnitude, &exp2);  // magnitude = m * 2**exp2 with 0.5 <= m < 1
  const int unbiased = exp2 - 1;
  if (unbiased > bias) return std::copysign(INFINITY, value);
  const int quantum_exp = (unbiased > min_normal_exp ? unbiased : min_normal_exp) - man_bits;
  const double scaled = std::ldexp(magnitude, -quantum_exp);  // exact: only the exponent changes
  const double units = round_half_even(scaled);
  if (units >= std::ldexp(1.0, bias + 1 - quantum_exp)) return std::copysign(INFINITY, value);
  return std::copysign(std::ldexp(units, quantum_exp), value);
}

bool is_representable(double value, int exp_bits, int man_bits) {
  return float_to_bits(round_to_format(value, exp_bits, man_bits)) == float_to_bits(value);
}

}  // namespace rocke::ir
