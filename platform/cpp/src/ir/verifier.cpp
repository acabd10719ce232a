// Python twin: rocke/ir/verifier.py
// Each method is the twin of the Python method of the same name (same checks, same order).
#include "rocke/ir/verifier.hpp"

#include <deque>
#include <optional>

#include "rocke/ir/errors.hpp"
#include "rocke/ir/facts.hpp"
#include "rocke/ir/id_map.hpp"
#include "rocke/ir/names.hpp"
#include "rocke/ir/typecheck.hpp"

namespace rocke::ir {

namespace {

const Constraint& param_types() {
  static const Constraint constraint(format_facts().param_types);
  return constraint;
}

// where() builds the location text, only when a check fails.
template <class Where>
void check_attr_dict(const AttrMap& attrs, const std::vector<AttrDef>& defs, const Where& where) {
  try {
    check_attrs(defs, attrs, Type());
  } catch (const OpCheckError& exc) {
    throw VerifyError(exc.rule(), where(), exc.detail());
  }
}

std::vector<Type> value_types(std::span<Value* const> values) {
  std::vector<Type> out;
  out.reserve(values.size());
  for (const Value* v : values) out.push_back(v->type);
  return out;
}

// Operand and result types of the op being checked at one region depth.
struct TypeScratch {
  std::vector<Type> operands;
  std::optional<std::vector<Type>> results;  // engaged once, so check_op takes it without a copy
  std::vector<Type> checked;                 // check_op_into's result types (unused: they equal results)
};

// A verification's maps and lists, kept per thread between verifications and emptied after each
// (StateInUse), so they are not allocated, zeroed and grown again for every kernel.
struct VerifierState {
  IdMap visible;
  IdMap defined;
  std::deque<TypeScratch> scratch;  // by region depth; a deque: references stay valid
  std::vector<std::int64_t> added;  // region()'s ids to hide, innermost region last
  bool busy = false;
};

// The thread's VerifierState for one verification (a fresh one while the thread's is in use),
// emptied when the verification ends, whether it passed or threw.
class StateInUse {
 public:
  StateInUse() {
    thread_local VerifierState kept;
    if (kept.busy) {
      own_.emplace();
      state_ = &*own_;
    } else {
      state_ = &kept;
    }
    state_->busy = true;
  }
  StateInUse(const StateInUse&) = delete;
  StateInUse& operator=(const StateInUse&) = delete;
  ~StateInUse() {
    state_->visible.clear();
    state_->defined.clear();
    state_->added.clear();
    state_->busy = false;
  }
  VerifierState& operator*() const { return *state_; }

 private:
  std::optional<VerifierState> own_;
  VerifierState* state_;
};

class Verifier {
 public:
  // emitted_checked: the kernel was finished in the active VerifyOnce, so an op checked at
  // emission skips check_op here (the verify_once contract: no change since its emission).
  Verifier(const KernelDef& kernel, const ArchLike* arch, bool emitted_checked, VerifierState& state)
      : kernel_(kernel),
        arch_(arch),
        emitted_checked_(emitted_checked),
        max_value_id_(format_facts().max_value_id),
        visible_(state.visible),
        defined_(state.defined),
        scratch_(state.scratch),
        added_(state.added) {}

  void run() {
    const std::string where = "kernel @" + kernel_.name;
    if (!is_kernel_name(kernel_.name)) throw VerifyError("kernel", "kernel", "invalid kernel name");
    check_attr_dict(kernel_.attrs, kernel_attrs(), [&] { return where; });
    for (std::size_t index = 0; index < kernel_.params.size(); ++index) param(index, kernel_.params[index]);
    const Region* body = kernel_.body;
    if (body == nullptr || !body->args.empty()) {
      throw VerifyError("region", where, "the body must be a Region without arguments");
    }
    region(*body, "body", 1, nullptr);
  }

 private:
  // where() and what() build the message texts, only when a check fails.
  template <class Where, class What>
  Value* define(Value* value, const Where& where, const What& what) {
    if (value == nullptr || value->type.is_none()) {
      throw VerifyError("structure", where(), what() + " must be a Value with a Type");
    }
    if (value->id < 0 || value->id > max_value_id_) {
      throw VerifyError("structure", where(), what() + " has an invalid id");
    }
    if (defined_.find(value->id) != nullptr) {
      throw VerifyError("ssa", where(), "value id %" + std::to_string(value->id) + " is defined twice");
    }
    if (value->name.has_value() && !is_hint(*value->name)) {
      throw VerifyError("name", where(), what() + " %" + std::to_string(value->id) + " has an invalid name hint");
    }
    defined_.set(value->id, value);
    return value;
  }

  void param(std::size_t index, const Param& p) {
    Value* value = define(
        p.value, [&] { return "param #" + std::to_string(index); }, [] { return std::string("the param value"); });
    auto where = [&] { return "param #" + std::to_string(index) + " %" + std::to_string(value->id); };
    if (!param_types().admits(value->type)) {
      throw VerifyError("param", where(),
                        "type " + value->type.text() + " is not allowed; allowed: " + param_types().text());
    }
    static const std::vector<AttrDef> NONE;
    check_attr_dict(p.attrs, value->type.is_ptr() ? param_attrs() : NONE, where);
    auto readonly = p.attrs.find("readonly");
    auto writeonly = p.attrs.find("writeonly");
    if (readonly != p.attrs.end() && readonly->second.truthy() && writeonly != p.attrs.end() &&
        writeonly->second.truthy()) {
      throw VerifyError("param", where(), "readonly and writeonly exclude each other");
    }
    visible_.set(value->id, value);
  }

  // Verify region's ops; its args and results stop being visible when it ends. path is the
  // region's location (body, body[3].then); an op's is path[index], built only for a message.
  void region(const Region& reg, const std::string& path, std::int64_t depth, const RegionDef* rdef) {
    // The ids to hide go on one stack shared by all regions (this region's part starts at first).
    const std::size_t first = added_.size();
    for (const Value* value : reg.args) added_.push_back(value->id);
    const std::size_t count = reg.ops.size();
    TypeScratch& scratch = scratch_at(depth);  // this depth's type lists, for every op of the region
    for (std::size_t index = 0; index < count; ++index) {
      const Op* op = reg.ops[index];
      if (op == nullptr) throw VerifyError("structure", "op at " + loc_of(path, index), "expected an Op, got NoneType");
      check_op_at(*op, path, index, depth, index == count - 1 ? rdef : nullptr, scratch);
      for (const Value* value : op->results) added_.push_back(value->id);
    }
    for (std::size_t i = first; i < added_.size(); ++i) visible_.erase(added_[i]);
    added_.resize(first);
  }

  static std::string loc_of(const std::string& path, std::size_t index) {
    return path + "[" + std::to_string(index) + "]";
  }

  static std::string where_of(const Op& op, const std::string& loc) {
    std::string ref;
    if (!op.results.empty() && op.results[0] != nullptr) ref = " %" + std::to_string(op.results[0]->id);
    return std::string(op.opcode) + ref + " at " + loc;
  }

  // The table row of op's opcode: the one the op was made with, when it still names it.
  static const OpDef* opdef_of(const Op& op) {
    if (const OpDef* def = op.own_def()) return def;
    return find_op(op.opcode);
  }

  void check_op_at(const Op& op, const std::string& path, std::size_t index, std::int64_t depth,
                   const RegionDef* ending, TypeScratch& scratch) {
    auto where = [&] { return where_of(op, loc_of(path, index)); };
    const OpDef* opdef = opdef_of(op);
    if (opdef == nullptr) throw VerifyError("opcode", where(), "unknown op");
    for (const Region* r : op.regions) {
      if (r == nullptr) throw VerifyError("structure", where(), "attrs must be a dict and regions Regions");
    }
    // The type lists live in this depth's scratch, reused by every op at this depth (an op's
    // regions use the next depth's), so checking an op allocates no lists of its own. An op whose
    // check_op is skipped needs them only for its regions or its MMA signature: else not made.
    const bool op_checked = emitted_checked_ && op.checked_at_emission;
    const bool want_types = !op_checked || opdef->mma_signature_rule || !op.regions.empty() || !opdef->regions.empty();
    std::vector<Type>& types = scratch.operands;
    types.clear();
    for (std::size_t slot = 0; slot < op.operands.size(); ++slot) {
      const Value* value = op.operands[slot];
      if (value == nullptr || value->type.is_none()) {
        throw VerifyError("structure", where(), "operand #" + std::to_string(slot) + " must be a Value with a Type");
      }
      if (visible_.find(value->id) != value) {
        std::string detail = defined_.find(value->id) == value
                                 ? "operand #" + std::to_string(slot) + " %" + std::to_string(value->id) +
                                       " is not visible here"
                                 : "operand #" + std::to_string(slot) + " %" + std::to_string(value->id) +
                                       " is not defined before this op";
        throw VerifyError("dominance", where(), detail);
      }
      if (want_types) types.push_back(value->type);
    }
    for (std::size_t slot = 0; slot < op.results.size(); ++slot) {
      define(op.results[slot], where, [slot] { return "result #" + std::to_string(slot); });
    }
    std::optional<std::vector<Type>>& results = scratch.results;
    if (!results.has_value()) results.emplace();
    std::vector<Type>& result_types = *results;
    result_types.clear();
    if (want_types) {
      for (const Value* v : op.results) result_types.push_back(v->type);
    }
    if (!op_checked) {
      try {  // the checked result types go to scratch, reused: no vector per op
        check_op_into(*opdef, types, op.attrs, std::span<const Type>(result_types), scratch.checked);
      } catch (const OpCheckError& exc) {
        throw VerifyError(exc.rule(), where(), exc.detail());
      }
    }
    placement(*opdef, where, depth, ending);
    arch(*opdef, op, where, types);
    if (!op.regions.empty() || !opdef->regions.empty()) {
      regions(*opdef, op, where(), loc_of(path, index), depth, types, result_types);
    }
    for (Value* value : op.results) visible_.set(value->id, value);
  }

  template <class Where>
  void placement(const OpDef& opdef, const Where& where, std::int64_t depth, const RegionDef* ending) {
    if (opdef.where == Placement::KernelBody && depth != 1) {
      throw VerifyError("placement", where(), "only allowed directly in the kernel body");
    }
    if (opdef.where == Placement::Terminator && (ending == nullptr || ending->terminator != opdef.name)) {
      throw VerifyError("placement", where(), "must be the last op of a region it terminates");
    }
  }

  template <class Where>
  void arch(const OpDef& opdef, const Op& op, const Where& where, const std::vector<Type>& types) {
    if (arch_ == nullptr) return;
    if (!opdef.feature.empty() && !arch_->has_feature(opdef.feature)) {
      throw VerifyError("arch", where(),
                        "needs feature '" + opdef.feature + "', which " + arch_->arch_name() + " does not have");
    }
    if (opdef.mma_signature_rule) {
      const std::string& op_id = op.attrs.find("op_id")->second.s;
      std::optional<std::array<Type, 3>> signature = arch_->mma_signature(op_id);
      if (!signature.has_value()) {
        throw VerifyError("arch", where(), "op_id '" + op_id + "' is not available on " + arch_->arch_name());
      }
      std::vector<Type> sig(signature->begin(), signature->end());
      if (sig != types) {
        throw VerifyError("arch", where(),
                          "op_id '" + op_id + "' on " + arch_->arch_name() + " takes (a, b, c) = " + types_text(sig) +
                              ", got " + types_text(types));
      }
    }
  }

  void regions(const OpDef& opdef, const Op& op, const std::string& where, const std::string& loc, std::int64_t depth,
               const std::vector<Type>& types, const std::vector<Type>& result_types) {
    if (op.regions.size() != opdef.regions.size()) {
      throw VerifyError("region", where,
                        std::string("has ") + std::to_string(op.regions.size()) + " regions, expected " +
                            std::to_string(opdef.regions.size()));
    }
    const std::int64_t max_depth = format_facts().max_region_depth;
    if (!op.regions.empty() && depth >= max_depth) {
      throw VerifyError("region", where, "region nesting deeper than " + std::to_string(max_depth));
    }
    for (std::size_t r = 0; r < op.regions.size(); ++r) {
      const Region& reg = *op.regions[r];
      const RegionDef& rdef = opdef.regions[r];
      std::vector<Type> expected;
      if (rdef.for_body) {
        expected.push_back(types.at(0));
        expected.insert(expected.end(), types.begin() + static_cast<std::ptrdiff_t>(opdef.fixed_operand_count()),
                        types.end());
      }
      for (std::size_t index = 0; index < reg.args.size(); ++index) {
        define(
            reg.args[index], [&] { return where; },
            [&] { return "region '" + rdef.name + "' argument #" + std::to_string(index); });
      }
      std::vector<Type> got = value_types(reg.args);
      if (got != expected) {
        throw VerifyError("region", where,
                          "region '" + rdef.name + "' has arguments " + types_text(got) + ", expected " +
                              types_text(expected));
      }
      for (Value* value : reg.args) visible_.set(value->id, value);
      const std::string path = loc + "." + rdef.name;
      const Op* last = reg.ops.empty() ? nullptr : reg.ops.back();
      if (last == nullptr || last->opcode != rdef.terminator) {
        throw VerifyError("region", where, "region '" + rdef.name + "' must end with " + rdef.terminator);
      }
      region(reg, path, depth + 1, &rdef);
      std::vector<Type> yielded = value_types(reg.ops.back()->operands);
      if (yielded != result_types) {
        throw VerifyError("yield", where,
                          "region '" + rdef.name + "' yields " + types_text(yielded) + ", expected " +
                              types_text(result_types));
      }
    }
  }

  TypeScratch& scratch_at(std::int64_t depth) {
    auto index = static_cast<std::size_t>(depth);
    while (scratch_.size() <= index) scratch_.emplace_back();  // a deque: references stay valid
    return scratch_[index];
  }

  const KernelDef& kernel_;
  const ArchLike* arch_;
  bool emitted_checked_;
  const std::int64_t max_value_id_;  // read once: define() checks every value id against it
  IdMap& visible_;
  IdMap& defined_;
  std::deque<TypeScratch>& scratch_;
  std::vector<std::int64_t>& added_;  // region()'s ids to hide, innermost region last
};

}  // namespace

bool VerifyOnce::has(const KernelDef& kernel, const ArchLike* arch) const {
  for (const auto& [body, target] : verified_) {
    if (body == kernel.body && target == arch) return true;
  }
  return false;
}

bool VerifyOnce::built(const KernelDef& kernel) const {
  for (const Region* body : built_) {
    if (body == kernel.body) return true;
  }
  return false;
}

void verify(const KernelDef& kernel, const ArchLike* arch) {
  VerifyOnce* active = VerifyOnce::active();
  VerifyOnce* scope = arch != nullptr ? active : nullptr;
  if (scope != nullptr && scope->has(kernel, arch)) return;
  StateInUse state;
  Verifier(kernel, arch, active != nullptr && active->built(kernel), *state).run();
  if (scope != nullptr) scope->verified_.emplace_back(kernel.body, arch);
}

}  // namespace rocke::ir
