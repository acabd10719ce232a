// rocKE C++ engine: the lowering of each opcode, one function per op, gathered from the ops_*
// files.
// Python twin: rocke/lower/dispatch.py
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rocke/ir/core.hpp"

namespace rocke::lower {

class FunctionEmitter;

using Lowering = void (*)(FunctionEmitter&, const ir::Op&);
// One ops_* file's LOWERINGS: (opcode, lowering) in the order Python's dict lists them.
using Lowerings = std::vector<std::pair<std::string, Lowering>>;

// Lower one op with the lowering of its opcode (KeyError for an opcode without one).
void lower_op(FunctionEmitter& em, const ir::Op& op);

}  // namespace rocke::lower
