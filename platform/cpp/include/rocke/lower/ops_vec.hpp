// rocKE C++ engine: lowering of vec.* ops: element extract and insert, splat, bitcast.
// Python twin: rocke/lower/ops_vec.py
#pragma once

#include "rocke/lower/dispatch.hpp"

namespace rocke::lower::ops_vec {

const Lowerings& lowerings();

}  // namespace rocke::lower::ops_vec
