// Python twin: rocke/lower/ops_scf.py
#include "rocke/lower/ops_scf.hpp"

#include "rocke/lower/emitter.hpp"
#include "rocke/lower/llvm_types.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::lower::ops_scf {

namespace {

// A block label, PREFIX NUMBER SUFFIX ("for3.header"), in a fixed buffer: a loop makes four labels
// and an if three, and none needs a string of its own.
class Label {
 public:
  Label(std::string_view prefix, const Decimal& number, std::string_view suffix) {
    char* out = put_part(text_, prefix);
    out = put_part(out, number);
    size_ = static_cast<std::size_t>(put_part(out, suffix) - text_);
  }
  operator std::string_view() const { return {text_, size_}; }  // NOLINT(google-explicit-constructor): a label is its text

 private:
  char text_[40];  // "for" or "if", at most 20 characters of number, at most 7 of suffix
  std::size_t size_;
};

void lower_for(FunctionEmitter& em, const ir::Op& op) {
  const Decimal number(em.next_scf_id());
  const Label header("for", number, ".header");
  const Label body("for", number, ".body");
  const Label latch("for", number, ".latch");
  const Label exit("for", number, ".exit");
  std::string path = util::cat(em.loc(), ".body");
  const ir::Value& lb = *op.operands[0];
  const ir::Value& ub = *op.operands[1];
  const ir::Value& step = *op.operands[2];
  const ir::Region& region = *op.regions[0];
  const ir::Value& iv = *region.args[0];
  std::string entering = em.current;
  em.emit("br label %", header);
  em.label(header);
  std::size_t phi_at = em.body.size();  // the phis are written once the latch values are known
  const std::string& iv_name = em.bind(iv);
  std::vector<std::string> iter_names;
  for (std::size_t i = 1; i < region.args.size(); ++i) iter_names.push_back(em.bind(*region.args[i]));
  std::string cond = em.temp();
  const std::string& iv_type = em.llvm_type(lb.type);
  em.emit(cond, " = icmp slt ", iv_type, " ", iv_name, ", ", em.ref(ub));
  em.emit("br i1 ", cond, ", label %", body, ", label %", exit);
  em.label(body);
  std::span<ir::Value* const> yielded = em.lower_region(region, path);
  em.emit("br label %", latch);
  em.label(latch);
  std::string next_iv = em.temp();
  em.emit(next_iv, " = add ", iv_type, " ", iv_name, ", ", em.ref(step));
  em.emit("br label %", header);
  // The phi lines, one text inserted into the body at the header.
  std::string phis = util::cat("  ", iv_name, " = phi ", iv_type, " [ ", em.ref(lb), ", %", entering, " ], [ ",
                               next_iv, ", %", latch, " ]\n");
  std::size_t inits = op.operands.size() - 3;
  if (iter_names.size() != inits || yielded.size() != inits) throw ValueError("zip() arguments differ in length");
  for (std::size_t i = 0; i < inits; ++i) {
    const ir::Value& init = *op.operands[3 + i];
    phis.append(util::cat("  ", iter_names[i], " = phi ", em.llvm_type(init.type), " [ ", em.ref(init), ", %", entering,
                          " ], [ ", em.ref(*yielded[i]), ", %", latch, " ]\n"));
  }
  em.body.insert(phi_at, phis);
  em.label(exit);
  if (op.results.size() != iter_names.size()) throw ValueError("zip() arguments differ in length");
  for (std::size_t i = 0; i < op.results.size(); ++i) {
    const ir::Value& result = *op.results[i];
    const std::string& name = em.bind(result);
    em.emit(name, " = phi ", em.llvm_type(result.type), " [ ", iter_names[i], ", %", header, " ]");
  }
}

void lower_if(FunctionEmitter& em, const ir::Op& op) {
  const Decimal number(em.next_scf_id());
  const Label then_label("if", number, ".then");
  const Label else_label("if", number, ".else");
  const Label join("if", number, ".join");
  std::string loc = em.loc();
  const ir::Region& then_region = *op.regions[0];
  const ir::Region& else_region = *op.regions[1];
  bool skip_else = op.results.empty() && else_region.ops.size() == 1;
  em.emit("br i1 ", em.ref(*op.operands[0]), ", label %", then_label, ", label %",
          std::string_view(skip_else ? join : else_label));
  em.label(then_label);
  std::span<ir::Value* const> then_values = em.lower_region(then_region, util::cat(loc, ".then"));
  std::string then_end = em.current;
  em.emit("br label %", join);
  std::span<ir::Value* const> else_values;
  std::string else_end;
  if (!skip_else) {
    em.label(else_label);
    else_values = em.lower_region(else_region, util::cat(loc, ".else"));
    else_end = em.current;
    em.emit("br label %", join);
  }
  em.label(join);
  if (then_values.size() != op.results.size() || else_values.size() != op.results.size()) {
    throw ValueError("zip() arguments differ in length");
  }
  for (std::size_t i = 0; i < op.results.size(); ++i) {
    const ir::Value& result = *op.results[i];
    const std::string& name = em.bind(result);
    em.emit(name, " = phi ", em.llvm_type(result.type), " [ ", em.ref(*then_values[i]), ", %", then_end,
                      " ], [ ", em.ref(*else_values[i]), ", %", else_end, " ]");
  }
}

}  // namespace

const Lowerings& lowerings() {
  static const Lowerings table{{"scf.for", &lower_for}, {"scf.if", &lower_if}};
  return table;
}

}  // namespace rocke::lower::ops_scf
