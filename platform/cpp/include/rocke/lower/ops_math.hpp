// rocKE C++ engine: lowering of math.* ops: llvm.exp2 / log2 / sqrt, and the approximate
// reciprocals (afn).
// Python twin: rocke/lower/ops_math.py
#pragma once

#include "rocke/lower/dispatch.hpp"

namespace rocke::lower::ops_math {

const Lowerings& lowerings();

}  // namespace rocke::lower::ops_math
