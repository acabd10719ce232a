// rocKE C++ engine: canonical value ids.
// Python twin: rocke/ir/canonical.py
//
// canonicalize renumbers value ids 0, 1, 2, ... in the order their definitions appear in the
// text (params, then for each op its results, then each of its regions' arguments and ops).
// Name hints, types, attributes and structure are kept, so two kernels are semantically equal
// exactly when their canonical texts are byte-equal.
#pragma once

#include "rocke/ir/core.hpp"

namespace rocke::ir {

// A copy of kernel with canonical ids (kernel itself is not changed). ValueError when a value is
// used before its definition.
KernelDef canonicalize(const KernelDef& kernel);

// Semantic equality: equal canonical texts.
bool equivalent(const KernelDef& a, const KernelDef& b);

}  // namespace rocke::ir
