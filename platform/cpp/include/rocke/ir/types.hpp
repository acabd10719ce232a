// rocKE C++ engine: IR types, values compared by value.
// Python twin: rocke/ir/types.py
//
// Text forms: scalars i1 i8 i16 i32 i64 f16 bf16 f32, vectors vec<f16x4>, pointers
// ptr<f16, global> (address spaces global, constant, lds, private) and the buffer resource
// rsrc. The scalar set and the vector/pointer rules come from data/ir.toml.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/ir/lexer.hpp"

namespace rocke::ir {

// One row of [[scalar]] in ir.toml.
struct ScalarInfo {
  std::string name;
  std::string kind;  // "int" or "float"
  int bits;
  int exp_bits;
  int man_bits;
  bool is_int_kind = false;    // kind == "int", kept as a flag for the per-op type checks
  bool is_float_kind = false;  // kind == "float"
};

namespace detail {
// The [[scalar]] rows by index, read on first use (Type::info() runs for most type tests).
const ScalarInfo* load_scalar_table();
inline std::atomic<const ScalarInfo*> scalar_table{nullptr};
}  // namespace detail

class Type {
 public:
  enum class Kind : std::uint8_t { None, Scalar, Vec, Ptr, Rsrc };

  constexpr Type() = default;  // "no type" (Python's None where a Type is optional)

  static Type scalar(std::size_t index);
  static Type vector_of(std::size_t elem_index, int lanes);
  static Type pointer(Type pointee, std::size_t space_index);
  static Type resource();

  Kind kind() const { return kind_; }
  bool is_none() const { return kind_ == Kind::None; }
  bool is_scalar() const { return kind_ == Kind::Scalar; }
  bool is_int() const;    // integer scalar
  bool is_float() const;  // float scalar
  bool is_vec() const { return kind_ == Kind::Vec; }
  bool is_ptr() const { return kind_ == Kind::Ptr; }
  bool is_rsrc() const { return kind_ == Kind::Rsrc; }

  std::string text() const;      // the text form, e.g. "ptr<vec<f16x4>, lds>"
  std::string category() const;  // int, float, vec_int, vec_float, ptr_<space>, rsrc

  // Scalars and vectors.
  // The scalar, or a vector's element.
  const ScalarInfo& info() const {
    const ScalarInfo* table = detail::scalar_table.load(std::memory_order_acquire);
    return (table != nullptr ? table : detail::load_scalar_table())[scalar_];
  }
  Type element() const;            // the scalar itself, or a vector's element type
  Type elem() const { return element(); }
  int lanes() const;               // 1 for scalars
  int bits() const { return info().bits; }
  int exp_bits() const { return info().exp_bits; }
  int man_bits() const { return info().man_bits; }
  int total_bits() const { return info().bits * lanes(); }
  std::string_view name() const { return info().name; }  // scalar name

  // Pointers.
  Type pointee() const;
  std::string_view space() const;
  std::size_t space_index() const { return space_; }

  // The four byte fields compared as one word (field by field, the compiler compares each byte).
  friend bool operator==(const Type& a, const Type& b) { return a.word() == b.word(); }

  std::size_t hash() const {
    return (static_cast<std::size_t>(kind_) << 24) ^ (static_cast<std::size_t>(scalar_) << 16) ^
           (static_cast<std::size_t>(lanes_) << 8) ^ space_;
  }

 private:
  Kind kind_ = Kind::None;
  std::uint8_t scalar_ = 0;  // scalar index: the scalar, a vector's element, a pointee's element
  std::uint8_t lanes_ = 0;   // vector lanes; for a pointer, the pointee's lanes (0: scalar pointee)
  std::uint8_t space_ = 0;   // address space index of a pointer

  std::uint32_t word() const { return std::bit_cast<std::uint32_t>(*this); }
};
static_assert(sizeof(Type) == sizeof(std::uint32_t));

// Every [[scalar]] of ir.toml, in file order.
const std::vector<ScalarInfo>& scalar_infos();
// Every address space, in file order.
const std::vector<std::string>& address_spaces();
int min_lanes();
int max_lanes();

// The scalar type named name; ValueError listing the known names otherwise.
Type scalar_type(std::string_view name);
// vec<elem x lanes>: TypeError for a bad element type, ValueError for a bad lane count.
Type vec(Type elem, std::int64_t lanes);
// ptr<pointee, space>: TypeError for a bad pointee, ValueError for an unknown address space.
Type ptr(Type pointee, std::string_view space);

// Parse a type's text form (e.g. "ptr<vec<f16x4>, lds>"); ParseError (a ValueError) otherwise.
Type parse_type(std::string_view text);
// Read one type from the stream, consuming exactly its tokens. pointee=true reads the pointee of
// a ptr<...>, which is never a pointer.
Type parse_type_stream(TokenStream& tokens, bool pointee = false);

inline const Type i1 = scalar_type("i1");
inline const Type i8 = scalar_type("i8");
inline const Type i16 = scalar_type("i16");
inline const Type i32 = scalar_type("i32");
inline const Type i64 = scalar_type("i64");
inline const Type f16 = scalar_type("f16");
inline const Type bf16 = scalar_type("bf16");
inline const Type f32 = scalar_type("f32");
inline const Type rsrc = Type::resource();

}  // namespace rocke::ir

template <>
struct std::hash<rocke::ir::Type> {
  std::size_t operator()(const rocke::ir::Type& t) const noexcept { return t.hash(); }
};
