// rocKE C++ engine: the nvptx target's lowering of mem ops.
// Python twin: rocke/lower/nvptx/ops_mem.py
#pragma once

#include "rocke/lower/dispatch.hpp"

namespace rocke::lower::nvptx::ops_mem {

const Lowerings& lowerings();

}  // namespace rocke::lower::nvptx::ops_mem
