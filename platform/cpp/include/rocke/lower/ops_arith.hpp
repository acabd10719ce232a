// rocKE C++ engine: lowering of arith.* ops: plain LLVM instructions, plus llvm.fma / minnum /
// maxnum for the float operations LLVM has no instruction for.
// Python twin: rocke/lower/ops_arith.py
#pragma once

#include "rocke/lower/dispatch.hpp"

namespace rocke::lower::ops_arith {

const Lowerings& lowerings();

}  // namespace rocke::lower::ops_arith
