// Python twin: rocke/lower/ops_mma.py
#include "rocke/lower/ops_mma.hpp"

#include "rocke/arch/mma.hpp"
#include "rocke/lower/emitter.hpp"
#include "rocke/lower/llvm_types.hpp"

namespace rocke::lower::ops_mma {

namespace {

// The argument texts of one fragment.
void operand_args(FunctionEmitter& em, const ir::Value& value, const arch::MmaOperand& frag,
                  std::vector<std::string>& args) {
  if (frag.parts == 1) {
    args.push_back(em.operand_as(value, frag.llvm_type()));
    return;
  }
  std::int64_t part_bits = byte_size(value.type) * 8 / frag.parts;
  std::string part_int = util::cat("i", std::to_string(part_bits));
  std::string words_type = util::cat("<", std::to_string(frag.parts), " x ", part_int, ">");
  const std::string elem = scalar_text(value.type.element());
  bool respelled = elem != frag.llvm_elem;
  std::string words = respelled ? em.operand_as(value, words_type) : em.ref(value);
  std::string source = respelled ? words_type : em.llvm_type(value.type);
  for (std::int64_t part = 0; part < frag.parts; ++part) {
    std::string item = em.temp();
    em.emit(item, " = extractelement ", source, " ", words, ", i32 ", part);
    if (respelled && frag.llvm_elem != part_int) {
      std::string cast = em.temp();
      em.emit(cast, " = bitcast ", part_int, " ", item, " to ", frag.llvm_elem);
      item = cast;
    }
    args.push_back(item);
  }
}

// The catalog intrinsic with the catalog's immediates.
void lower_mma(FunctionEmitter& em, const ir::Op& op) {
  const std::string& op_id = str_attr(op, "op_id");
  const arch::MmaOp& catalog = arch::mma_op(op_id);
  const arch::IntrinsicDecl& decl = em.declare(arch::mma_intrinsic_def(op_id));
  if (op.operands.size() != 3) throw ValueError("mma.mma: expected 3 operands");
  std::vector<std::string> args;
  operand_args(em, *op.operands[0], catalog.a, args);
  operand_args(em, *op.operands[1], catalog.b, args);
  operand_args(em, *op.operands[2], catalog.c, args);
  for (const arch::ImmOperand& imm : catalog.imm_operands) args.push_back(std::to_string(imm.value));
  const ir::Value& result = *op.results[0];
  if (catalog.c.parts == 1) {
    em.call_into(decl, args, result);
    return;
  }
  std::string whole = em.temp();
  em.call(decl, args, whole);
  const std::string& ty = em.llvm_type(result.type);
  std::string acc = "poison";
  for (std::int64_t part = 0; part < catalog.c.parts; ++part) {
    std::string item = em.temp();
    em.emit(item, " = extractvalue ", decl.ret, " ", whole, ", ", part);
    std::string next = part == catalog.c.parts - 1 ? em.bind(result) : em.temp();
    em.emit(next, " = insertelement ", ty, " ", acc, ", ", catalog.c.llvm_elem, " ", item, ", i32 ", part);
    acc = next;
  }
}

}  // namespace

const Lowerings& lowerings() {
  static const Lowerings table{
      {"mma.mma", &lower_mma},
  };
  return table;
}

}  // namespace rocke::lower::ops_mma
