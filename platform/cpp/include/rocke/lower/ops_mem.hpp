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

// The space of a pointer value's type.
std::string_view pointee_space(const ir::Value& ptr);
// The index of the buffer access size moving a value_type (1, 2, 4, 8, 12 or 16 bytes); any other
// size is a LowerError naming them.
std::size_t buffer_type(FunctionEmitter& em, const ir::Type& value_type);
// Plain memory accesses, lowered alike on every target.
const Lowerings& shared_lowerings();
// The amdgcn target's buffer and atomic lowerings.
const Lowerings& lowerings();

}  // namespace rocke::lower::ops_mem
