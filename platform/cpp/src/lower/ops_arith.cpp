// Python twin: rocke/lower/ops_arith.py
#include "rocke/lower/ops_arith.hpp"

#include <array>
#include <iterator>
#include <string_view>
#include <utility>

#include "rocke/lower/emitter.hpp"
#include "rocke/lower/llvm_types.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::lower::ops_arith {

namespace {

// op -> (instruction for integer operands, instruction for float operands); "" = not defined.
struct Binary {
  std::string_view op;
  std::string_view int_inst;
  std::string_view float_inst;
};
constexpr Binary kBinary[] = {
    {"arith.add", "add", "fadd"},   {"arith.sub", "sub", "fsub"},   {"arith.mul", "mul", "fmul"},
    {"arith.divf", "", "fdiv"},     {"arith.divs", "sdiv", ""},     {"arith.divu", "udiv", ""},
    {"arith.rems", "srem", ""},     {"arith.remu", "urem", ""},     {"arith.and", "and", ""},
    {"arith.or", "or", ""},         {"arith.xor", "xor", ""},       {"arith.shl", "shl", ""},
    {"arith.shrs", "ashr", ""},     {"arith.shru", "lshr", ""},
};
// Integer min/max as compare + select (what LLVM matches to v_min/v_max).
constexpr std::pair<std::string_view, std::string_view> kMinmax[] = {
    {"arith.mins", "slt"}, {"arith.maxs", "sgt"}, {"arith.minu", "ult"}, {"arith.maxu", "ugt"}};
constexpr std::pair<std::string_view, std::string_view> kCasts[] = {
    {"arith.extf", "fpext"},   {"arith.truncf", "fptrunc"}, {"arith.sitofp", "sitofp"}, {"arith.uitofp", "uitofp"},
    {"arith.fptosi", "fptosi"}, {"arith.fptoui", "fptoui"}, {"arith.exts", "sext"},     {"arith.extu", "zext"},
    {"arith.trunc", "trunc"}};
// Float ops that are calls of an overloaded LLVM intrinsic (operands in order).
constexpr std::pair<std::string_view, std::string_view> kFloatIntrinsics[] = {
    {"arith.fma", "llvm.fma.{M}"}, {"arith.minf", "llvm.minnum.{M}"}, {"arith.maxf", "llvm.maxnum.{M}"}};

template <class Table>
std::string_view lookup(const Table& table, std::string_view op) {
  for (const auto& [name, value] : table) {
    if (name == op) return value;
  }
  throw KeyError(util::cat("'", op, "'"));
}

void lower_constant(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& result = *op.results[0];
  em.alias(result, const_text(op.attrs.at("value"), elem_of(result.type)));
}

void lower_binary(FunctionEmitter& em, const ir::Op& op, const Binary& row) {
  const ir::Value& lhs = *op.operands[0];
  const ir::Value& rhs = *op.operands[1];
  std::string_view inst = float_elem(lhs.type) ? row.float_inst : row.int_inst;
  const std::string& result = em.bind(*op.results[0]);
  em.emit(result, " = ", inst, " ", em.typed(lhs), ", ", em.ref(rhs));
}

// One lowering per table entry, so the opcode's row is known without looking it up.
template <std::size_t I>
void lower_binary_at(FunctionEmitter& em, const ir::Op& op) {
  lower_binary(em, op, kBinary[I]);
}
template <std::size_t I>
void lower_cast_at(FunctionEmitter& em, const ir::Op& op);

template <std::size_t... I>
constexpr std::array<Lowering, sizeof...(I)> binary_lowerings(std::index_sequence<I...>) {
  return {&lower_binary_at<I>...};
}
template <std::size_t... I>
constexpr std::array<Lowering, sizeof...(I)> cast_lowerings(std::index_sequence<I...>) {
  return {&lower_cast_at<I>...};
}

// frem; bf16 goes through f32 (LLVM 22 has no bf16 frem lowering: "no libcall available for
// frem"). fmod is exact, so the f32 result is the bf16 result exactly.
void lower_remf(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& lhs = *op.operands[0];
  const ir::Value& rhs = *op.operands[1];
  const ir::Value& result = *op.results[0];
  const std::string& ty = em.llvm_type(lhs.type);
  if (elem_of(lhs.type).name() != "bf16") {
    const std::string& name = em.bind(result);
    em.emit(name, " = frem ", ty, " ", em.ref(lhs), ", ", em.ref(rhs));
    return;
  }
  std::string wide = lanes_of(lhs.type) ? util::cat("<", std::to_string(lanes_of(lhs.type)), " x float>") : "float";
  std::string a = em.temp();
  std::string b = em.temp();
  std::string r = em.temp();
  em.emit(a, " = fpext ", ty, " ", em.ref(lhs), " to ", wide);
  em.emit(b, " = fpext ", ty, " ", em.ref(rhs), " to ", wide);
  em.emit(r, " = frem ", wide, " ", a, ", ", b);
  const std::string& name = em.bind(result);
  em.emit(name, " = fptrunc ", wide, " ", r, " to ", ty);
}

void lower_negf(FunctionEmitter& em, const ir::Op& op) {
  const std::string& name = em.bind(*op.results[0]);
  em.emit(name, " = fneg ", em.typed(*op.operands[0]));
}

void lower_minmax(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& lhs = *op.operands[0];
  const ir::Value& rhs = *op.operands[1];
  const std::string& ty = em.llvm_type(lhs.type);
  std::string cond_ty = lanes_of(lhs.type) ? util::cat("<", std::to_string(lanes_of(lhs.type)), " x i1>") : "i1";
  std::string cond = em.temp();
  em.emit(cond, " = icmp ", lookup(kMinmax, op.opcode), " ", ty, " ", em.ref(lhs), ", ", em.ref(rhs));
  const std::string& name = em.bind(*op.results[0]);
  em.emit(name, " = select ", cond_ty, " ", cond, ", ", ty, " ", em.ref(lhs), ", ", ty, " ", em.ref(rhs));
}

void lower_cmp(FunctionEmitter& em, const ir::Op& op, std::string_view inst) {
  const ir::Value& lhs = *op.operands[0];
  const ir::Value& rhs = *op.operands[1];
  const std::string& name = em.bind(*op.results[0]);
  em.emit(name, " = ", inst, " ", str_attr(op, "pred"), " ", em.typed(lhs), ", ", em.ref(rhs));
}

void lower_cmpi(FunctionEmitter& em, const ir::Op& op) { lower_cmp(em, op, "icmp"); }
void lower_cmpf(FunctionEmitter& em, const ir::Op& op) { lower_cmp(em, op, "fcmp"); }

void lower_select(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& cond = *op.operands[0];
  const ir::Value& a = *op.operands[1];
  const ir::Value& b = *op.operands[2];
  const std::string& name = em.bind(*op.results[0]);
  em.emit(name, " = select i1 ", em.ref(cond), ", ", em.typed(a), ", ", em.typed(b));
}

void lower_cast(FunctionEmitter& em, const ir::Op& op, std::string_view inst) {
  const ir::Value& result = *op.results[0];
  const std::string& name = em.bind(result);
  em.emit(name, " = ", inst, " ", em.typed(*op.operands[0]), " to ", em.llvm_type(result.type));
}

template <std::size_t I>
void lower_cast_at(FunctionEmitter& em, const ir::Op& op) {
  lower_cast(em, op, kCasts[I].second);
}

Lowerings build() {
  Lowerings out{{"arith.constant", &lower_constant}};
  constexpr auto binary = binary_lowerings(std::make_index_sequence<std::size(kBinary)>());
  for (std::size_t i = 0; i < binary.size(); ++i) out.emplace_back(kBinary[i].op, binary[i]);
  out.emplace_back("arith.remf", &lower_remf);
  out.emplace_back("arith.negf", &lower_negf);
  for (const auto& [name, pred] : kMinmax) out.emplace_back(name, &lower_minmax);
  add_float_call_lowerings<kFloatIntrinsics>(out);
  out.emplace_back("arith.cmpi", &lower_cmpi);
  out.emplace_back("arith.cmpf", &lower_cmpf);
  out.emplace_back("arith.select", &lower_select);
  constexpr auto casts = cast_lowerings(std::make_index_sequence<std::size(kCasts)>());
  for (std::size_t i = 0; i < casts.size(); ++i) out.emplace_back(kCasts[i].first, casts[i]);
  return out;
}

}  // namespace

const Lowerings& lowerings() {
  static const Lowerings table = build();
  return table;
}

}  // namespace rocke::lower::ops_arith
