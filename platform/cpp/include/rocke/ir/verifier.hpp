// rocKE C++ engine: the IR rules every engine checks before lowering.
// Python twin: rocke/ir/verifier.py
//
// Rules (the [rule] tag of VerifyError): kernel, param, attr, name, structure, opcode,
// dominance, ssa, arity, type, addrspace, placement, region, yield, arch. The walk is in text
// order and stops at the first failure, so the message is deterministic. Locations are paths
// such as body[3].then[0] (op index within each region, region names from ops.toml).
#pragma once

#include <utility>
#include <vector>

#include "rocke/ir/archlike.hpp"
#include "rocke/ir/core.hpp"
#include "rocke/ir/scope.hpp"

namespace rocke::ir {

// Throw VerifyError on the first broken rule; with arch, also check op legality for it. While a
// VerifyOnce is alive on this thread, a kernel already verified for the same arch there passes at once.
void verify(const KernelDef& kernel, const ArchLike* arch = nullptr);

// While alive (the innermost on its thread), verify(kernel, arch) of a kernel that passed
// verify(kernel, arch) for the same arch object in this scope returns at once; a kernel is known
// by its body Region (a KernelDef may move, its arena-held body does not). One-pass emitters
// (gates::emit_family) open one around a family's build, whose builder verifies its kernel for the
// arch, and their own verification, so the kernel is walked once. Nothing may change a kernel
// between the two calls. A kernel a Builder finished in the scope (finish() records it) also
// skips, in verify, the op check of each op the builder checked at emission (Op::checked_at_emission:
// the same check_op on the same operand types, attrs and result types); the verifier's other rules
// (structure, ids, dominance, placement, arch, regions, yields) still run. Nothing may change a
// kernel between its ops' emission and that verify either.
class VerifyOnce : public ThreadScope<VerifyOnce> {
 private:
  friend void verify(const KernelDef& kernel, const ArchLike* arch);
  friend class Builder;
  bool has(const KernelDef& kernel, const ArchLike* arch) const;
  bool built(const KernelDef& kernel) const;

  std::vector<std::pair<const Region*, const ArchLike*>> verified_;
  std::vector<const Region*> built_;
};

}  // namespace rocke::ir
