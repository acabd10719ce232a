// Python twin: rocke/helpers/fmath.py
#include "rocke/helpers/fmath.hpp"

#include "rocke/helpers/dtypes.hpp"

namespace rocke::helpers {

using ir::Builder;
using ir::f32;
using ir::Hint;
using ir::Type;
using ir::Value;

Value* f32_const(Builder& b, double value, std::int64_t lanes, Hint name) {
  Value* scalar = b.const_(value, f32, lanes == 1 ? name : Hint{});
  return lanes == 1 ? scalar : b.splat(scalar, lanes, std::move(name));
}

Value* to_f32(Builder& b, Value* x, Type elem, std::int64_t lanes, Hint name) {
  if (elem == f32) return x;
  return b.extf(x, vector_type(f32, lanes), std::move(name));
}

Value* from_f32(Builder& b, Value* x, Type elem, std::int64_t lanes, Hint name) {
  if (elem == f32) return x;
  return b.truncf(x, vector_type(elem, lanes), std::move(name));
}

Value* sigmoid_of_scaled(Builder& b, Value* u, double scale, std::int64_t lanes) {
  Value* e = b.exp2(b.mul(u, f32_const(b, scale, lanes)));
  return b.rcp(b.add(e, f32_const(b, 1.0, lanes)));
}

Value* silu(Builder& b, Value* x, std::int64_t lanes, Hint name) {
  return b.mul(x, sigmoid_of_scaled(b, x, -kLog2e, lanes), std::move(name));
}

Value* gelu_tanh(Builder& b, Value* x, std::int64_t lanes, Hint name) {
  Value* x2 = b.mul(x, x);
  Value* cubic = f32_const(b, kGeluCubic, lanes);
  Value* one = f32_const(b, 1.0, lanes);
  Value* poly = b.fma(x2, cubic, one);
  return b.mul(x, sigmoid_of_scaled(b, b.mul(x, poly), kGeluExp2Scale, lanes), std::move(name));
}

Value* relu(Builder& b, Value* x, std::int64_t lanes, Hint name) {
  return b.maxf(x, f32_const(b, 0.0, lanes), std::move(name));
}

}  // namespace rocke::helpers
