// Python twin: rocke/ir/core.py
#include "rocke/ir/core.hpp"

#include "rocke/errors.hpp"

namespace rocke::ir {

Value* Op::result() const {
  if (results.size() != 1) {
    throw ValueError(std::string(opcode) + " has " + std::to_string(results.size()) + " results, not 1");
  }
  return results[0];
}

// The arena's items are made in place (parenthesized aggregate initialization): no temporary to
// move from and destroy per value and op.
Value* Arena::value(std::int64_t id, Type type, Hint name) { return &values_.emplace_back(id, type, std::move(name)); }

Op* Arena::op(std::string_view opcode, OpValues operands, OpValues results, AttrMap attrs,
              std::vector<Region*> regions) {
  const OpDef* def = find_op(opcode);
  const std::string_view text = def != nullptr ? std::string_view(def->name) : texts_.emplace_back(opcode);
  return &ops_.emplace_back(text, def, std::move(operands), std::move(results), std::move(attrs), std::move(regions));
}

Op* Arena::op(const OpDef& def, OpValues&& operands, OpValues&& results, AttrMap&& attrs,
              std::vector<Region*>&& regions) {
  return &ops_.emplace_back(std::string_view(def.name), &def, std::move(operands), std::move(results), std::move(attrs),
                            std::move(regions));
}

Region* Arena::region(Values args, std::vector<Op*> ops) {
  return &regions_.emplace_back(std::move(args), std::move(ops));
}

KernelDef::KernelDef(std::string name_, std::vector<Param> params_, AttrMap attrs_, Region* body_,
                     std::unique_ptr<Arena> arena)
    : name(std::move(name_)),
      params(std::move(params_)),
      attrs(std::move(attrs_)),
      body(body_),
      arena_(std::move(arena)) {}

void KernelDef::walk(const std::function<void(Op&)>& visit) const {
  // An explicit stack (not recursion): a kernel's nesting depth is bounded only by the verifier.
  struct Frame {
    const Region* region;
    std::size_t next;
  };
  std::vector<Frame> stack{{body, 0}};
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next >= top.region->ops.size()) {
      stack.pop_back();
      continue;
    }
    Op* op = top.region->ops[top.next++];
    visit(*op);
    for (auto it = op->regions.rbegin(); it != op->regions.rend(); ++it) stack.push_back({*it, 0});
  }
}

std::size_t KernelDef::op_count() const {
  std::size_t count = 0;
  walk([&](Op&) { ++count; });
  return count;
}

}  // namespace rocke::ir
