// rocKE C++ engine: the nvptx target's lowering of math ops.
// Python twin: rocke/lower/nvptx/ops_math.py
#pragma once

#include "rocke/lower/dispatch.hpp"

namespace rocke::lower::nvptx::ops_math {

const Lowerings& lowerings();

}  // namespace rocke::lower::nvptx::ops_math
