// rocKE C++ engine: parse rocke.ir/1 text into a KernelDef. Untrusted input: every failure is a
// ParseError (line, col, message identical to the Python engine's), and nothing else.
// Python twin: rocke/ir/parser.py
//
// The parser checks syntax and conformance to the tables (known ops, operand/result/region
// counts, exact typed attributes with in-range values, param types) and id scoping (every use
// refers to a visible earlier definition, every id is defined once). Type rules and the other
// semantic checks are verify()'s job. Limits (region depth, id size, integer literal length)
// come from ir.toml.
#pragma once

#include <string_view>

#include "rocke/ir/core.hpp"

namespace rocke::ir {

// Parse text given as bytes (Python's str or ASCII bytes encode to the same bytes up to the
// first non-ASCII character, which is refused at its position).
ir::KernelDef parse_kernel(std::string_view text);

}  // namespace rocke::ir
