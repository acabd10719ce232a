// Python twin: rocke/ir/canonical.py
#include "rocke/ir/canonical.hpp"

#include <unordered_map>

#include "rocke/errors.hpp"
#include "rocke/ir/printer.hpp"

namespace rocke::ir {

namespace {

class Renumber {
 public:
  explicit Renumber(Arena& arena) : arena_(arena) {}

  Value* define(const Value* value) {
    Value* fresh = arena_.value(static_cast<std::int64_t>(mapping_.size()), value->type, value->name);
    mapping_[value] = fresh;
    return fresh;
  }

  Value* use(const Value* value, const Op& op) const {
    auto it = mapping_.find(value);
    if (it == mapping_.end()) {
      throw ValueError("canonicalize: %" + std::to_string(value->id) + " used by " + std::string(op.opcode) +
                       " before its definition (verify the kernel first)");
    }
    return it->second;
  }

  Region* region(const Region& region) {
    Values args;
    for (const Value* value : region.args) args.push_back(define(value));
    std::vector<Op*> ops;
    for (const Op* inner : region.ops) ops.push_back(op(*inner));
    return arena_.region(std::move(args), std::move(ops));
  }

  Op* op(const Op& op) {
    Values operands;
    for (const Value* value : op.operands) operands.push_back(use(value, op));
    Values results;
    for (const Value* value : op.results) results.push_back(define(value));
    std::vector<Region*> regions;
    for (const Region* inner : op.regions) regions.push_back(region(*inner));
    return arena_.op(op.opcode, std::move(operands), std::move(results), op.attrs, std::move(regions));
  }

 private:
  Arena& arena_;
  std::unordered_map<const Value*, Value*> mapping_;
};

}  // namespace

KernelDef canonicalize(const KernelDef& kernel) {
  auto arena = std::make_unique<Arena>();
  Renumber renumber(*arena);
  std::vector<Param> params;
  for (const Param& p : kernel.params) params.push_back(Param{renumber.define(p.value), p.attrs});
  Region* body = renumber.region(*kernel.body);
  return KernelDef(kernel.name, std::move(params), kernel.attrs, body, std::move(arena));
}

bool equivalent(const KernelDef& a, const KernelDef& b) {
  return print_kernel(canonicalize(a)) == print_kernel(canonicalize(b));
}

}  // namespace rocke::ir
