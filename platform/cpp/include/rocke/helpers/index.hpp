// rocKE C++ engine: i32 index math with host-time constant folding, and host-side integer facts.
// Python twin: rocke/helpers/index.py
//
// Helpers that take a host int fold the trivial cases at build time (adding 0, multiplying by 1)
// exactly as the Python ones do, so the IR never holds them.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "rocke/ir/builder.hpp"

namespace rocke::helpers {

// Host ceil(a / b) for a >= 0, b > 0 (Python: -(-a // b)).
std::int64_t ceil_div(std::int64_t a, std::int64_t b);
// The largest power of two dividing value (value > 0).
std::int64_t pow2_factor(std::int64_t value);
// Greatest common divisor of the values (0 for an empty list or all zeros).
std::int64_t gcd_all(const std::vector<std::int64_t>& values);
// gcd_all of start followed by values (a gcd carried over several lists without joining them).
std::int64_t gcd_with(std::int64_t start, std::span<const std::int64_t> values);
// Byte alignment promised for an access whose element index is a sum of multiples of the given
// element counts (a 0 adds no constraint): the largest power of two dividing the byte offset,
// at least esize and at most cap.
std::int64_t guaranteed_align(std::int64_t esize, std::int64_t cap, const std::vector<std::int64_t>& multiples);
// guaranteed_align for multiples whose gcd_all is gcd.
std::int64_t align_of_gcd(std::int64_t esize, std::int64_t cap, std::int64_t gcd);

ir::Value* const_i32(ir::Builder& b, std::int64_t value, ir::Hint name = {});
// x + c; x itself when c == 0 (and no name is asked for).
ir::Value* add_i32(ir::Builder& b, ir::Value* x, std::int64_t c, ir::Hint name = {});
// x * c; x itself when c == 1 (and no name is asked for).
ir::Value* mul_i32(ir::Builder& b, ir::Value* x, std::int64_t c, ir::Hint name = {});
// x / d (unsigned, d > 0); x itself when d == 1 (and no name is asked for).
ir::Value* divu_i32(ir::Builder& b, ir::Value* x, std::int64_t d, ir::Hint name = {});
// x % d (unsigned, d > 0); the constant 0 when d == 1.
ir::Value* remu_i32(ir::Builder& b, ir::Value* x, std::int64_t d, ir::Hint name = {});
// ceil(x / d) for x >= 0 (device), d > 0 (host).
ir::Value* ceil_div_i32(ir::Builder& b, ir::Value* x, std::int64_t d, ir::Hint name = {});
// block_id_x * block + thread_id_x for a 1D launch of `block` threads per workgroup.
ir::Value* global_id_x(ir::Builder& b, std::int64_t block, ir::Hint name = "gid");

}  // namespace rocke::helpers
