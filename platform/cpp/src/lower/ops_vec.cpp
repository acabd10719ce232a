// Python twin: rocke/lower/ops_vec.py
#include "rocke/lower/ops_vec.hpp"

#include "rocke/arch/mma.hpp"
#include "rocke/lower/emitter.hpp"
#include "rocke/lower/llvm_types.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::lower::ops_vec {

namespace {

void lower_extract(FunctionEmitter& em, const ir::Op& op) {
  std::string name = em.bind(*op.results[0]);
  em.emit(util::cat(name, " = extractelement ", em.typed(*op.operands[0]), ", i32 ",
                    std::to_string(int_attr(op, "index"))));
}

void lower_insert(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& v = *op.operands[0];
  const ir::Value& x = *op.operands[1];
  std::string name = em.bind(*op.results[0]);
  em.emit(util::cat(name, " = insertelement ", em.typed(v), ", ", em.typed(x), ", i32 ",
                    std::to_string(int_attr(op, "index"))));
}

// insertelement into lane 0 of poison, then a zero-mask shufflevector.
void lower_splat(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& result = *op.results[0];
  std::string ty = llvm_type(result.type);
  std::int64_t lanes = lanes_of(result.type);
  std::string first = em.temp();
  em.emit(util::cat(first, " = insertelement ", ty, " poison, ", em.typed(*op.operands[0]), ", i64 0"));
  std::string name = em.bind(result);
  em.emit(util::cat(name, " = shufflevector ", ty, " ", first, ", ", ty, " poison, <", std::to_string(lanes),
                    " x i32> zeroinitializer"));
}

// The catalog intrinsic with the catalog's immediates; operands whose rocke.ir type is spelled
// differently from the intrinsic's (bf16 as i16) are bitcast.
void lower_mma(FunctionEmitter& em, const ir::Op& op) {
  const std::string& op_id = str_attr(op, "op_id");
  const arch::MmaOp& catalog = arch::mma_op(op_id);
  const arch::IntrinsicDecl& decl = em.declare(arch::mma_intrinsic_def(op_id));
  std::vector<std::string> arg_types = decl.arg_types();
  if (op.operands.size() != 3 || arg_types.size() < 3) throw ValueError("zip() arguments differ in length");
  std::vector<std::string> args;
  for (std::size_t i = 0; i < 3; ++i) {
    const ir::Value& value = *op.operands[i];
    const std::string& want = arg_types[i];
    if (llvm_type(value.type) == want) {
      args.push_back(em.ref(value));
    } else {
      std::string cast = em.temp();
      em.emit(util::cat(cast, " = bitcast ", em.typed(value), " to ", want));
      args.push_back(cast);
    }
  }
  for (const arch::ImmOperand& imm : catalog.imm_operands) args.push_back(std::to_string(imm.value));
  const ir::Value& result = *op.results[0];
  std::string result_type = llvm_type(result.type);
  if (decl.ret == result_type) {
    em.call(decl, args, em.bind(result));
    return;
  }
  std::string raw = em.temp();
  em.call(decl, args, raw);
  std::string name = em.bind(result);
  em.emit(util::cat(name, " = bitcast ", decl.ret, " ", raw, " to ", result_type));
}

}  // namespace

const Lowerings& lowerings() {
  static const Lowerings table{
      {"vec.extract", &lower_extract},
      {"vec.insert", &lower_insert},
      {"vec.splat", &lower_splat},
      {"mma.mma", &lower_mma},
  };
  return table;
}

}  // namespace rocke::lower::ops_vec
