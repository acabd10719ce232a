// rocKE C++ engine: the nvptx target's lowering of sync ops.
// Python twin: rocke/lower/nvptx/ops_sync.py
#pragma once

#include "rocke/lower/dispatch.hpp"

namespace rocke::lower::nvptx::ops_sync {

const Lowerings& lowerings();

}  // namespace rocke::lower::nvptx::ops_sync
