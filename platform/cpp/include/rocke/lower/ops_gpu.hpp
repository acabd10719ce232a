// rocKE C++ engine: lowering of gpu.* ops: work-item and workgroup ids, workgroup sizes, lane and
// wave ids.
// Python twin: rocke/lower/ops_gpu.py
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "rocke/lower/dispatch.hpp"

namespace rocke::lower::ops_gpu {

// result (a new temporary when nullopt) = the workgroup size in dimension dim ("x", "y", "z"),
// read from the dispatch packet.
std::string emit_block_dim(FunctionEmitter& em, std::string_view dim, std::optional<std::string> result);
// result (a new temporary when nullopt) = the lane index: mbcnt over an all-ones mask counts the
// lanes below this one.
std::string emit_lane_id(FunctionEmitter& em, std::optional<std::string> result);

const Lowerings& lowerings();

}  // namespace rocke::lower::ops_gpu
