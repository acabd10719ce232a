// rocKE C++ engine: the IR rules every engine checks before lowering.
// Python twin: rocke/ir/verifier.py
//
// Rules (the [rule] tag of VerifyError): kernel, param, attr, name, structure, opcode,
// dominance, ssa, arity, type, addrspace, placement, region, yield, arch. The walk is in text
// order and stops at the first failure, so the message is deterministic. Locations are paths
// such as body[3].then[0] (op index within each region, region names from ops.toml).
#pragma once

#include "rocke/ir/archlike.hpp"
#include "rocke/ir/core.hpp"

namespace rocke::ir {

// Throw VerifyError on the first broken rule; with arch, also check op legality for it.
void verify(const KernelDef& kernel, const ArchLike* arch = nullptr);

}  // namespace rocke::ir
