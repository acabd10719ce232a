// rocKE C++ engine: the nvptx target's lowering of xlane ops.
// Python twin: rocke/lower/nvptx/ops_xlane.py
#pragma once

#include "rocke/lower/dispatch.hpp"

namespace rocke::lower::nvptx::ops_xlane {

const Lowerings& lowerings();

}  // namespace rocke::lower::nvptx::ops_xlane
