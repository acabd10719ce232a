// Python twin: rocke/lower/nvptx/ops_math.py
#include "rocke/lower/nvptx/ops_math.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/arch/intrinsics.hpp"
#include "rocke/lower/emitter.hpp"
#include "rocke/lower/llvm_types.hpp"

namespace rocke::lower::nvptx::ops_math {

namespace {

constexpr std::string_view kF32 = "float";

// math op -> the f32 intrinsics applied in order (rsqrt: the root, then its reciprocal).
const std::vector<std::string_view>& steps_of(std::string_view opcode) {
  static const std::vector<std::string_view> exp2{"llvm.exp2.{M}"};
  static const std::vector<std::string_view> log2{"llvm.nvvm.lg2.approx.f"};
  static const std::vector<std::string_view> sqrt{"llvm.sqrt.{M}"};
  static const std::vector<std::string_view> rcp{"llvm.nvvm.rcp.rn.f"};
  static const std::vector<std::string_view> rsqrt{"llvm.sqrt.{M}", "llvm.nvvm.rcp.rn.f"};
  if (opcode == "math.exp2") return exp2;
  if (opcode == "math.log2") return log2;
  if (opcode == "math.sqrt") return sqrt;
  if (opcode == "math.rcp") return rcp;
  return rsqrt;
}

// Each step's intrinsic applied in turn to the f32 text x, the last into result (a new temporary
// when nullopt; temporaries are taken as they are defined, so they number in text order).
std::string f32_steps(FunctionEmitter& em, const std::vector<std::string_view>& steps, std::string x,
                      const std::optional<std::string>& result) {
  for (std::size_t index = 0; index < steps.size(); ++index) {
    const arch::IntrinsicDef& row = arch::intrinsic_def(steps[index]);
    const arch::IntrinsicDecl& decl = row.overload.empty() ? em.declare(row) : em.declare(row, "f32", 0);
    std::string out = index == steps.size() - 1 && result.has_value() ? *result : em.temp();
    em.call(decl, {x}, out);
    x = out;
  }
  return x;
}

// One lane: the steps of x into result (a new temporary when nullopt), extended to f32 and rounded
// back when elem is not f32.
std::string scalar_math(FunctionEmitter& em, const std::vector<std::string_view>& steps, const ir::Type& elem,
                        const std::string& x, std::optional<std::string> result) {
  const std::string& ty = scalar_text(elem);
  if (ty == kF32) return f32_steps(em, steps, x, result);
  std::string wide = em.temp();
  em.emit(wide, " = fpext ", ty, " ", x, " to ", kF32);
  std::string value = f32_steps(em, steps, wide, std::nullopt);
  if (!result.has_value()) result = em.temp();
  em.emit(*result, " = fptrunc ", kF32, " ", value, " to ", ty);
  return *result;
}

void lower_math(FunctionEmitter& em, const ir::Op& op) {
  const std::vector<std::string_view>& steps = steps_of(op.opcode);
  const ir::Value& x = *op.operands[0];
  const ir::Value& result = *op.results[0];
  if (x.type.is_scalar()) {
    std::string x_text = em.ref(x);
    scalar_math(em, steps, x.type, x_text, em.bind(result));
    return;
  }
  std::string vec_text = em.llvm_type(x.type);
  ir::Type elem_type = x.type.element();
  const std::string& elem = scalar_text(elem_type);
  std::string acc = "poison";
  for (std::int64_t lane = 0; lane < x.type.lanes(); ++lane) {
    std::string item = em.temp();
    em.emit(item, " = extractelement ", em.typed(x), ", i32 ", lane);
    std::string value = scalar_math(em, steps, elem_type, item, std::nullopt);
    std::string next = lane == x.type.lanes() - 1 ? em.bind(result) : em.temp();
    em.emit(next, " = insertelement ", vec_text, " ", acc, ", ", elem, " ", value, ", i32 ", lane);
    acc = next;
  }
}

}  // namespace

const Lowerings& lowerings() {
  static const Lowerings table{
      {"math.exp2", &lower_math}, {"math.log2", &lower_math}, {"math.sqrt", &lower_math},
      {"math.rcp", &lower_math},  {"math.rsqrt", &lower_math},
  };
  return table;
}

}  // namespace rocke::lower::nvptx::ops_math
