// Python twin: rocke/helpers/reduce.py
#include "rocke/helpers/reduce.hpp"

#include "rocke/helpers/index.hpp"

namespace rocke::helpers {

using ir::Builder;
using ir::Hint;
using ir::Value;

Value* combine(Builder& b, std::string_view kind, Value* x, Value* y, Hint name) {
  if (kind == "add") return b.add(x, y, std::move(name));
  if (x->type == ir::f32) return b.maxf(x, y, std::move(name));
  return b.maxs(x, y, std::move(name));
}

Value* wave_reduce(Builder& b, Value* x, std::string_view kind, std::int64_t width, Hint name) {
  std::int64_t step = width / 2;
  while (step >= 1) {
    x = combine(b, kind, x, b.shuffle_xor(x, step), name);
    step /= 2;
  }
  return x;
}

Value* block_reduce(Builder& b, Value* x, std::string_view kind, Value* partials, std::int64_t wave_size,
                    std::int64_t waves, Hint name) {
  Value* total = wave_reduce(b, x, kind, wave_size);
  Value* wave = b.wave_id("wave");
  Value* lane = b.lane_id("lane");
  b.if_(b.cmpi("eq", lane, const_i32(b, 0)), [&] { b.lds_store(partials, wave, total); });
  b.barrier();
  Value* result = b.lds_load(partials, const_i32(b, 0));
  for (std::int64_t w = 1; w < waves; ++w) {
    result = combine(b, kind, result, b.lds_load(partials, const_i32(b, w)), name);
  }
  b.barrier();
  return result;
}

}  // namespace rocke::helpers
