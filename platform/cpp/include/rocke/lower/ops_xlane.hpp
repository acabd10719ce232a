// rocKE C++ engine: lowering of xlane.* (cross-lane) ops: swizzles, permutes and readfirstlane on
// 32-bit words.
// Python twin: rocke/lower/ops_xlane.py
#pragma once

#include "rocke/lower/dispatch.hpp"

#include "rocke/arch/intrinsics.hpp"
#include "rocke/lower/emitter.hpp"

namespace rocke::lower::ops_xlane {

// value as i32 text (f32 is bitcast; the cross-lane intrinsics move 32-bit words).
std::string as_i32(FunctionEmitter& em, const ir::Value& value);
// result = row(args) on i32 words, bitcast back to the result type when it is f32.
void call_i32(FunctionEmitter& em, const ir::Op& op, const arch::IntrinsicDef& row, CallArgs args);

const Lowerings& lowerings();

}  // namespace rocke::lower::ops_xlane
