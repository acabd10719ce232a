// Python twin: rocke/lower/ops_mma.py
#include "rocke/lower/ops_mma.hpp"

#include "rocke/arch/mma.hpp"
#include "rocke/lower/emitter.hpp"

namespace rocke::lower::ops_mma {

namespace {

// The catalog intrinsic with the catalog's immediates; operands whose rocke.ir type is spelled
// differently from the intrinsic's (bf16 as i16) are bitcast.
void lower_mma(FunctionEmitter& em, const ir::Op& op) {
  const std::string& op_id = str_attr(op, "op_id");
  const arch::MmaOp& catalog = arch::mma_op(op_id);
  const arch::IntrinsicDecl& decl = em.declare(arch::mma_intrinsic_def(op_id));
  std::vector<std::string> arg_types = decl.arg_types();
  if (op.operands.size() != 3 || arg_types.size() < 3) throw ValueError("mma.mma: expected 3 operands");
  const ir::Value& a = *op.operands[0];
  const ir::Value& b = *op.operands[1];
  const ir::Value& c = *op.operands[2];
  const std::string& a_type = arg_types[0];
  const std::string& b_type = arg_types[1];
  const std::string& c_type = arg_types[2];
  std::vector<std::string> args;
  args.push_back(em.operand_as(a, a_type));
  args.push_back(em.operand_as(b, b_type));
  args.push_back(em.operand_as(c, c_type));
  for (const arch::ImmOperand& imm : catalog.imm_operands) args.push_back(std::to_string(imm.value));
  em.call_into(decl, args, *op.results[0]);
}

}  // namespace

const Lowerings& lowerings() {
  static const Lowerings table{
      {"mma.mma", &lower_mma},
  };
  return table;
}

}  // namespace rocke::lower::ops_mma
