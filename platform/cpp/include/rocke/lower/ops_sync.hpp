// rocKE C++ engine: lowering of sync.* ops: the workgroup barrier and the waitcnt of each arch's
// counter model.
// Python twin: rocke/lower/ops_sync.py
#pragma once

#include "rocke/lower/dispatch.hpp"

namespace rocke::lower::ops_sync {

const Lowerings& lowerings();

}  // namespace rocke::lower::ops_sync
