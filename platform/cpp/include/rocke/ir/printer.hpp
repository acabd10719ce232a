// rocKE C++ engine: print a KernelDef as rocke.ir/1 text.
// Python twin: rocke/ir/printer.py
//
//     rocke.ir/1
//     kernel @NAME {kernel attrs}
//     param %ID "HINT" : TYPE {param attrs}
//     body {
//       %ID "HINT" : TYPE, ... = OPCODE %A, %B {attrs} REGION-NAME(ARGS) {
//         ...
//       } REGION-NAME {
//         ...
//       }
//     }
//
// LF endings, final newline, 2 spaces per depth; attributes sorted by name and typed; floats are
// binary64 bit patterns in hex. The printer trusts its input: verify first.
#pragma once

#include <string>

#include "rocke/ir/core.hpp"

namespace rocke::ir {

// The text of kernel (ids as they are; canonicalize first for canonical ids).
std::string print_kernel(const ir::KernelDef& kernel);

}  // namespace rocke::ir
