// rocKE C++ engine: lowering of mma.mma: the catalog intrinsic of its op_id.
// Python twin: rocke/lower/ops_mma.py
#pragma once

#include "rocke/lower/dispatch.hpp"

namespace rocke::lower::ops_mma {

const Lowerings& lowerings();

}  // namespace rocke::lower::ops_mma
