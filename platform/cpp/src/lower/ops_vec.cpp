// Python twin: rocke/lower/ops_vec.py
#include "rocke/lower/ops_vec.hpp"

#include "rocke/lower/emitter.hpp"
#include "rocke/lower/llvm_types.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::lower::ops_vec {

namespace {

void lower_extract(FunctionEmitter& em, const ir::Op& op) {
  const std::string& name = em.bind(*op.results[0]);
  em.emit(name, " = extractelement ", em.typed(*op.operands[0]), ", i32 ",
                    int_attr(op, "index"));
}

void lower_insert(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& v = *op.operands[0];
  const ir::Value& x = *op.operands[1];
  const std::string& name = em.bind(*op.results[0]);
  em.emit(name, " = insertelement ", em.typed(v), ", ", em.typed(x), ", i32 ",
                    int_attr(op, "index"));
}

// insertelement into lane 0 of poison, then a zero-mask shufflevector.
void lower_splat(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& result = *op.results[0];
  const std::string& ty = em.llvm_type(result.type);
  std::int64_t lanes = lanes_of(result.type);
  std::string first = em.temp();
  em.emit(first, " = insertelement ", ty, " poison, ", em.typed(*op.operands[0]), ", i64 0");
  const std::string& name = em.bind(result);
  em.emit(name, " = shufflevector ", ty, " ", first, ", ", ty, " poison, <", lanes,
                    " x i32> zeroinitializer");
}

void lower_bitcast(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& result = *op.results[0];
  const std::string& name = em.bind(result);
  em.emit(name, " = bitcast ", em.typed(*op.operands[0]), " to ", em.llvm_type(result.type));
}

}  // namespace

const Lowerings& lowerings() {
  static const Lowerings table{
      {"vec.extract", &lower_extract},
      {"vec.insert", &lower_insert},
      {"vec.splat", &lower_splat},
      {"vec.bitcast", &lower_bitcast},
  };
  return table;
}

}  // namespace rocke::lower::ops_vec
