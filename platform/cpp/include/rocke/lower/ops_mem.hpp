// rocKE C++ engine: lowering of mem.* ops: addressing, global/constant/LDS loads and stores, raw
// buffers, atomics.
// Python twin: rocke/lower/ops_mem.py
#pragma once

#include <optional>
#include <string>

#include "rocke/ir/core.hpp"
#include "rocke/lower/dispatch.hpp"

namespace rocke::lower::ops_mem {

// result (a new temporary when nullopt) = ptr advanced by index pointees.
std::string emit_gep(FunctionEmitter& em, const ir::Value& ptr, const ir::Value& index,
                     std::optional<std::string> result = std::nullopt);

const Lowerings& lowerings();

}  // namespace rocke::lower::ops_mem
