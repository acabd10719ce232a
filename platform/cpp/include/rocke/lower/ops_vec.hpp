// rocKE C++ engine: lowering of vec.* element ops and mma.mma.
// Python twin: rocke/lower/ops_vec.py
#pragma once

#include "rocke/lower/dispatch.hpp"

namespace rocke::lower::ops_vec {

const Lowerings& lowerings();

}  // namespace rocke::lower::ops_vec
