// rocKE C++ engine: the nvptx target's lowering of gpu ops.
// Python twin: rocke/lower/nvptx/ops_gpu.py
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "rocke/lower/dispatch.hpp"

namespace rocke::lower::nvptx::ops_gpu {

// result (a new temporary when nullopt) = the special register %register (e.g. "tid.x", "laneid").
std::string read_sreg(FunctionEmitter& em, std::string_view register_name, std::optional<std::string> result);

const Lowerings& lowerings();

}  // namespace rocke::lower::nvptx::ops_gpu
