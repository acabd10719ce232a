// rocKE C++ engine: f32 math on scalars or vectors -- constants, widening/narrowing to storage,
// activations.
// Python twin: rocke/helpers/fmath.py
//
// Activations are written with exp2 and rcp so they lower to single hardware instructions
// (v_exp_f32, v_rcp_f32); the constants are binary64 literals rounded once to f32 by const_.
#pragma once

#include <cstdint>

#include "rocke/ir/builder.hpp"

namespace rocke::helpers {

inline constexpr double kLog2e = 1.4426950408889634;            // log2(e)
inline constexpr double kGeluCubic = 0.044715;                 // the cubic coefficient of the tanh approximation
inline constexpr double kGeluExp2Scale = -2.302208198144325;  // -2 * log2(e) * sqrt(2 / pi)

// An f32 constant, splat to `lanes` lanes when lanes > 1.
ir::Value* f32_const(ir::Builder& b, double value, std::int64_t lanes, ir::Hint name = {});
// Widen f16/bf16 (scalar or vector) to f32; f32 passes through.
ir::Value* to_f32(ir::Builder& b, ir::Value* x, ir::Type elem, std::int64_t lanes, ir::Hint name = {});
// Round f32 (scalar or vector) to the storage type, nearest even; f32 passes through.
ir::Value* from_f32(ir::Builder& b, ir::Value* x, ir::Type elem, std::int64_t lanes, ir::Hint name = {});
// 1 / (1 + 2^(u * scale)): the logistic sigmoid of -u * scale * ln 2.
ir::Value* sigmoid_of_scaled(ir::Builder& b, ir::Value* u, double scale, std::int64_t lanes);
// x * sigmoid(x) = x / (1 + exp(-x)).
ir::Value* silu(ir::Builder& b, ir::Value* x, std::int64_t lanes, ir::Hint name = {});
// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), computed as x * sigmoid(2 sqrt(2/pi) (...)).
ir::Value* gelu_tanh(ir::Builder& b, ir::Value* x, std::int64_t lanes, ir::Hint name = {});
// max(x, 0) (a NaN input gives 0, IEEE maxNum).
ir::Value* relu(ir::Builder& b, ir::Value* x, std::int64_t lanes, ir::Hint name = {});

}  // namespace rocke::helpers
