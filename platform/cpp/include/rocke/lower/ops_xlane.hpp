// rocKE C++ engine: lowering of xlane.* (cross-lane) ops: swizzles, permutes and readfirstlane on
// 32-bit words.
// Python twin: rocke/lower/ops_xlane.py
#pragma once

#include "rocke/lower/dispatch.hpp"

namespace rocke::lower::ops_xlane {

const Lowerings& lowerings();

}  // namespace rocke::lower::ops_xlane
