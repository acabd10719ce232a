// rocKE C++ engine: the lowering of each opcode, one function per op, gathered from the ops_*
// files (one per dialect).
// Python twin: rocke/lower/dispatch.py
#pragma once

#include <initializer_list>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "rocke/ir/core.hpp"

namespace rocke::lower {

class FunctionEmitter;

using Lowering = void (*)(FunctionEmitter&, const ir::Op&);
// One ops_* file's LOWERINGS: (opcode, lowering) in the order Python's dict lists them.
using Lowerings = std::vector<std::pair<std::string, Lowering>>;

// The tables as one; an opcode in two of them is a ValueError "two lowerings for 'OPCODE'" (no
// table silently wins).
std::unordered_map<std::string, Lowering> merge_lowerings(std::initializer_list<const Lowerings*> tables);

// Lower one op with the lowering of its opcode (KeyError for an opcode without one).
void lower_op(FunctionEmitter& em, const ir::Op& op);

}  // namespace rocke::lower
