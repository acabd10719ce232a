// Python twin: rocke/arch/mma.py
#include "rocke/arch/mma.hpp"

#include <algorithm>
#include <unordered_map>

#include "rocke/arch/errors.hpp"
#include "rocke/data/document.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::arch {

namespace {

// Scalar element types of the rocke IR (Python's SCALAR_DTYPES); dtype filters must name one.
constexpr std::array<std::string_view, 8> kScalarDtypes{"i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32"};

void check_dtype(const std::optional<std::string>& dtype, const char* what) {
  if (!dtype) return;
  for (std::string_view known : kScalarDtypes) {
    if (*dtype == known) return;
  }
  throw ValueError(util::cat("unknown ", what, " '", *dtype, "'; known: ", util::join(kScalarDtypes, ", ")));
}

MmaOperand parse_operand(const data::NodeRef& table, const std::string& name, std::int64_t rows, std::int64_t cols) {
  MmaOperand operand;
  operand.name = name;
  operand.dtype = std::string(table["dtype"].str());
  operand.length = table["length"].integer();
  operand.parts = table["parts"].integer();
  operand.llvm_elem = std::string(table["llvm_elem"].str());
  operand.replication = table["replication"].integer();
  operand.row = std::string(table["row"].str());
  operand.col = std::string(table["col"].str());
  operand.rows = rows;
  operand.cols = cols;
  operand.row_expr = parse_layout_expr(operand.row);
  operand.col_expr = parse_layout_expr(operand.col);
  return operand;
}

MmaOp parse_op(const data::NodeRef& table) {
  MmaOp op;
  op.id = std::string(table["id"].str());
  op.kind = std::string(table["kind"].str());
  data::NodeRef archs = table["archs"];
  for (std::size_t i = 0; i < archs.size(); ++i) op.archs.emplace_back(archs.at(i).str());
  op.wave_size = table["wave_size"].integer();
  op.m = table["m"].integer();
  op.n = table["n"].integer();
  op.k = table["k"].integer();
  op.intrinsic = std::string(table["intrinsic"].str());
  op.mnemonic = std::string(table["mnemonic"].str());
  data::NodeRef imms = table["imm_operands"];
  for (std::size_t i = 0; i < imms.size(); ++i) {
    data::NodeRef imm = imms.at(i);
    op.imm_operands.push_back(
        ImmOperand{std::string(imm["name"].str()), std::string(imm["type"].str()), imm["value"].integer()});
  }
  op.source = std::string(table["source"].str());
  op.layout_source = std::string(table["layout_source"].str());
  op.a = parse_operand(table["a"], "a", op.m, op.k);
  op.b = parse_operand(table["b"], "b", op.k, op.n);
  op.c = parse_operand(table["c"], "c", op.m, op.n);
  // Made from the operands' element type and length, not by parsing ir_type_text().
  auto fragment = [](const MmaOperand& x) { return ir::vec(ir::scalar_type(x.dtype), x.length); };
  op.fragments = {fragment(op.a), fragment(op.b), fragment(op.c)};
  return op;
}

}  // namespace

const MmaOperand& MmaOp::operand(std::string_view name) const {
  if (name == "a") return a;
  if (name == "b") return b;
  if (name == "c") return c;
  throw ValueError("unknown mma operand '" + std::string(name) + "'; expected one of: a, b, c");
}

std::pair<std::string, std::vector<std::string>> MmaOp::llvm_call_types() const {
  std::vector<std::string> args;
  for (const MmaOperand* x : {&a, &b, &c}) {
    for (std::string& type : x->llvm_arg_types()) args.push_back(std::move(type));
  }
  for (const ImmOperand& imm : imm_operands) args.push_back(imm.type);
  return {c.llvm_type(), args};
}

const std::vector<MmaOp>& mma_catalog() {
  static const std::vector<MmaOp> ops = [] {
    std::vector<MmaOp> out;
    data::NodeRef rows = data::document("rocke/arch/data/mma.toml")["op"];
    for (std::size_t i = 0; i < rows.size(); ++i) out.push_back(parse_op(rows.at(i)));
    return out;
  }();
  return ops;
}

const MmaOp* find_mma_op(std::string_view op_id) {
  // By id through a table made once (the verifier and the lowerer look an op up at every MMA op);
  // of two rows with one id the first is found, as a scan would find it.
  static const std::unordered_map<std::string_view, const MmaOp*> by_id = [] {
    std::unordered_map<std::string_view, const MmaOp*> made;
    for (const MmaOp& op : mma_catalog()) made.emplace(op.id, &op);
    return made;
  }();
  auto found = by_id.find(op_id);
  return found == by_id.end() ? nullptr : found->second;
}

bool is_catalog_row(const MmaOp& op) { return find_mma_op(op.id) == &op; }

const MmaOp& mma_op(std::string_view op_id) {
  const MmaOp* op = find_mma_op(op_id);
  if (op == nullptr) {
    std::vector<std::string> ids;
    for (const MmaOp& known : mma_catalog()) ids.push_back(known.id);
    throw UnknownMmaOpError("unknown mma op '" + std::string(op_id) + "'; known: " + util::join(ids, ", "));
  }
  return *op;
}

std::vector<const MmaOp*> mma_ops(const MmaFilter& filter) {
  std::optional<std::string> arch_name;
  if (filter.arch) arch_name = get_arch(*filter.arch).name;
  check_dtype(filter.a_dtype, "a_dtype");
  check_dtype(filter.b_dtype, "b_dtype");
  check_dtype(filter.acc_dtype, "acc_dtype");
  std::vector<const MmaOp*> out;
  for (const MmaOp& op : mma_catalog()) {
    bool on_arch = !arch_name || std::find(op.archs.begin(), op.archs.end(), *arch_name) != op.archs.end();
    if (on_arch && (!filter.a_dtype || op.a_dtype() == *filter.a_dtype) &&
        (!filter.b_dtype || op.b_dtype() == *filter.b_dtype) &&
        (!filter.acc_dtype || op.acc_dtype() == *filter.acc_dtype) && (!filter.m || op.m == *filter.m) &&
        (!filter.n || op.n == *filter.n)) {
      out.push_back(&op);
    }
  }
  return out;
}

const MmaOp* largest_k(const std::string& arch, const std::string& a_dtype, const std::string& b_dtype,
                       const std::string& acc_dtype, std::optional<std::int64_t> m, std::optional<std::int64_t> n) {
  const MmaOp* best = nullptr;
  for (const MmaOp* op : mma_ops({arch, a_dtype, b_dtype, acc_dtype, m, n})) {
    if (best == nullptr || op->k > best->k) best = op;
  }
  return best;
}

std::vector<std::array<std::int64_t, 4>> operand_layout(std::string_view op_id, std::string_view operand) {
  const MmaOp& op = mma_op(op_id);
  const MmaOperand& frag = op.operand(operand);
  std::vector<std::array<std::int64_t, 4>> out;
  for (std::int64_t lane = 0; lane < op.wave_size; ++lane) {
    for (std::int64_t slot = 0; slot < frag.length; ++slot) {
      auto [row, col] = frag.coords(lane, slot);
      out.push_back({lane, slot, row, col});
    }
  }
  return out;
}

}  // namespace rocke::arch
