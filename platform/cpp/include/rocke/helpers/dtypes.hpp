// rocKE C++ engine: storage dtypes by name -- their IR types, byte sizes and vector types.
// Python twin: rocke/helpers/dtypes.py
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "rocke/ir/types.hpp"

namespace rocke::helpers {

inline constexpr std::array<std::string_view, 3> kFloatDtypes = {"f16", "bf16", "f32"};

// The IR scalar type of a dtype name (f16, bf16, f32, i32, ...).
ir::Type ir_type(std::string_view dtype);

// Bytes of one element of a float storage dtype; KeyError ('NAME') for any other name.
std::int64_t elem_bytes(std::string_view dtype);

// The scalar itself for one lane, else vec<elem x lanes>.
ir::Type vector_type(ir::Type elem, std::int64_t lanes);

}  // namespace rocke::helpers
