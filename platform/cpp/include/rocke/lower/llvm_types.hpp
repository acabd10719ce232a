// rocKE C++ engine: rocke.ir types and constants as LLVM IR text.
// Python twin: rocke/lower/llvm_types.py
//
// Sizes and alignment follow the packed layout rocke.ir pointers step over: a scalar takes its
// bit width / 8 bytes, a vector lanes times its element (vec<f32x3> is 12 bytes). The natural
// alignment of a type is the largest power of two dividing its size, at most 16.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "rocke/arch/targets.hpp"
#include "rocke/ir/attrs.hpp"
#include "rocke/ir/types.hpp"

namespace rocke::lower {

inline constexpr std::int64_t kMaxNaturalAlign = 16;

const std::string& scalar_text(const ir::Type& scalar);
// LLVM spelling of a rocke.ir type: i32, half, <4 x float>, ptr addrspace(1), ptr addrspace(8).
// Spelled once per type and thread: the reference stays valid for the thread's lifetime.
const std::string& llvm_type(const ir::Type& ty, const arch::Target& target);
// elem_of(ty).is_float(): a float scalar or a vector of floats (remembered per type, like
// llvm_type).
bool float_elem(const ir::Type& ty);
// The scalar of a scalar type, the element of a vector type.
ir::Type elem_of(const ir::Type& ty);
// Lanes of a vector type, 0 for a scalar (the convention of overloaded intrinsic spellings).
std::int64_t lanes_of(const ir::Type& ty);
ir::Type pointee_of(const ir::Type& ty);
std::string pointer_text(std::string_view space, const arch::Target& target);
// The element type a getelementptr steps over: the scalar, or a packed array for a vector.
std::string gep_type(const ir::Type& pointee);
std::int64_t byte_size(const ir::Type& ty);
std::int64_t natural_align(const ir::Type& ty);
// Decimal, signed; i1 is true/false.
std::string int_text(std::int64_t value, const ir::Type& scalar);
// LLVM hex float: float 0x + 16 hex digits of the binary64 value, half 0xH + its 16 bits, bfloat
// 0xR + its 16 bits (upper-case hex). The value is exactly representable in the type.
std::string float_text(double value, const ir::Type& scalar);
// A num attribute (int or float) as a constant of scalar.
std::string const_text(const ir::AttrValue& value, const ir::Type& scalar);
// A constant of type ty holding value in every lane (vectors use splat (...)).
std::string splat_const(double value, const ir::Type& ty);
// An unsigned 32-bit pattern as LLVM's signed i32 decimal.
std::string i32_text(std::int64_t value);

}  // namespace rocke::lower
