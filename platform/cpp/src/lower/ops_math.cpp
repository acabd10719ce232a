// Python twin: rocke/lower/ops_math.py
#include "rocke/lower/ops_math.hpp"

#include <string_view>

#include "rocke/arch/intrinsics.hpp"
#include "rocke/lower/emitter.hpp"
#include "rocke/lower/llvm_types.hpp"

namespace rocke::lower::ops_math {

namespace {

// Ops that are calls of an overloaded LLVM intrinsic (operands in order).
constexpr std::pair<std::string_view, std::string_view> kIntrinsics[] = {
    {"math.exp2", "llvm.exp2.{M}"}, {"math.log2", "llvm.log2.{M}"}, {"math.sqrt", "llvm.sqrt.{M}"}};

// 1 / x, approximate (afn: the hardware reciprocal, about 1 ulp).
void lower_rcp(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& x = *op.operands[0];
  const std::string& name = em.bind(*op.results[0]);
  em.emit(name, " = fdiv afn ", em.llvm_type(x.type), " ", splat_const(1.0, x.type), ", ", em.ref(x));
}

// 1 / sqrt(x), approximate (afn on both: hardware square root and reciprocal).
void lower_rsqrt(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& x = *op.operands[0];
  const std::string& ty = em.llvm_type(x.type);
  const arch::IntrinsicDecl& decl = em.declare(arch::intrinsic_def("llvm.sqrt.{M}"), elem_of(x.type).name(),
                                               lanes_of(x.type));
  std::string root = em.temp();
  em.emit(root, " = call afn ", decl.ret, " @", decl.name, "(", ty, " ", em.ref(x), ")");
  const std::string& name = em.bind(*op.results[0]);
  em.emit(name, " = fdiv afn ", ty, " ", splat_const(1.0, x.type), ", ", root);
}

Lowerings build() {
  Lowerings out;
  add_float_call_lowerings<kIntrinsics>(out);
  out.emplace_back("math.rcp", &lower_rcp);
  out.emplace_back("math.rsqrt", &lower_rsqrt);
  return out;
}

}  // namespace

const Lowerings& lowerings() {
  static const Lowerings table = build();
  return table;
}

}  // namespace rocke::lower::ops_math
