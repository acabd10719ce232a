// Python twin: rocke/helpers/index.py
#include "rocke/helpers/index.hpp"

#include <algorithm>

namespace rocke::helpers {

using ir::Builder;
using ir::Hint;
using ir::Value;

namespace {

// Python's a // b (rounds toward negative infinity).
std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

}  // namespace

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return -floor_div(-a, b); }

std::int64_t pow2_factor(std::int64_t value) { return value & -value; }

std::int64_t gcd_all(const std::vector<std::int64_t>& values) { return gcd_with(0, values); }

std::int64_t gcd_with(std::int64_t start, std::span<const std::int64_t> values) {
  std::int64_t result = start;
  if (result == 1 || result == -1) return 1;
  for (std::int64_t value : values) {
    std::int64_t a = result < 0 ? -result : result;
    std::int64_t b = value < 0 ? -value : value;
    while (b != 0) {
      std::int64_t r = a % b;
      a = b;
      b = r;
    }
    result = a;
    if (result == 1) break;  // no later value lowers it (an alignment sweep adds a term per lane)
  }
  return result;
}

std::int64_t guaranteed_align(std::int64_t esize, std::int64_t cap, const std::vector<std::int64_t>& multiples) {
  return align_of_gcd(esize, cap, gcd_all(multiples));
}

std::int64_t align_of_gcd(std::int64_t esize, std::int64_t cap, std::int64_t gcd) {
  std::int64_t step = gcd * esize;
  std::int64_t align = step == 0 ? cap : std::min(cap, pow2_factor(step));
  return std::max(align, esize);
}

Value* const_i32(Builder& b, std::int64_t value, Hint name) { return b.const_(value, ir::i32, std::move(name)); }

Value* add_i32(Builder& b, Value* x, std::int64_t c, Hint name) {
  if (c == 0 && !name) return x;
  Value* constant = const_i32(b, c);
  return b.add(x, constant, std::move(name));
}

Value* mul_i32(Builder& b, Value* x, std::int64_t c, Hint name) {
  if (c == 1 && !name) return x;
  Value* constant = const_i32(b, c);
  return b.mul(x, constant, std::move(name));
}

Value* divu_i32(Builder& b, Value* x, std::int64_t d, Hint name) {
  if (d == 1 && !name) return x;
  Value* constant = const_i32(b, d);
  return b.divu(x, constant, std::move(name));
}

Value* remu_i32(Builder& b, Value* x, std::int64_t d, Hint name) {
  if (d == 1) return const_i32(b, 0, std::move(name));
  Value* constant = const_i32(b, d);
  return b.remu(x, constant, std::move(name));
}

Value* ceil_div_i32(Builder& b, Value* x, std::int64_t d, Hint name) {
  if (d == 1) return x;
  Value* biased = add_i32(b, x, d - 1);
  Value* constant = const_i32(b, d);
  return b.divu(biased, constant, std::move(name));
}

Value* global_id_x(Builder& b, std::int64_t block, Hint name) {
  Value* base = mul_i32(b, b.block_id_x("bid"), block);
  return b.add(base, b.thread_id_x("tid"), std::move(name));
}

}  // namespace rocke::helpers
