// rocKE C++ engine: lowering of sync.* ops: the workgroup barrier and the waitcnt of each arch's
// counter model.
// Python twin: rocke/lower/ops_sync.py
#pragma once

#include "rocke/lower/dispatch.hpp"

namespace rocke::lower::ops_sync {

// Data-driven by the arch's waitcnt_model, so every target shares it.
const Lowerings& shared_lowerings();
// The amdgcn target's barrier and fence.
const Lowerings& lowerings();

}  // namespace rocke::lower::ops_sync
