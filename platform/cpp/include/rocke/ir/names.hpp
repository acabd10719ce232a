// rocKE C++ engine: lexical rules for names shared by the Builder, verifier, printer and parser.
// Python twin: rocke/ir/names.py
#pragma once

#include <string_view>

namespace rocke::ir {

// Name hints of values: [A-Za-z_][A-Za-z0-9_.]* (printed as "NAME" after the id).
bool is_hint(std::string_view name);
// Kernel names: [A-Za-z_][A-Za-z0-9_]* (printed as @NAME; also the LLVM symbol, so no dots).
bool is_kernel_name(std::string_view name);

}  // namespace rocke::ir
