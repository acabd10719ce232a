// rocKE C++ engine: lowering of xlane.* (cross-lane) and sync.* ops.
// Python twin: rocke/lower/ops_xlane.py
#pragma once

#include "rocke/lower/dispatch.hpp"

namespace rocke::lower::ops_xlane {

const Lowerings& lowerings();

}  // namespace rocke::lower::ops_xlane
