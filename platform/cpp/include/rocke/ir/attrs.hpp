// rocKE C++ engine: attribute values and definitions (ops, kernels, params).
// Python twin: rocke/ir/attrs.py
//
// Attribute kinds: bool, i32, i64, str, num. A num attribute holds an int or float whose type is
// the op's first result type (arith.constant's value).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/data/document.hpp"
#include "rocke/ir/types.hpp"

namespace rocke::ir {

// One attribute value: Python's bool | int | float | str.
struct AttrValue {
  enum class Kind : std::uint8_t { Bool, Int, Float, Str };
  Kind kind = Kind::Int;
  bool b = false;
  std::int64_t i = 0;
  double f = 0.0;
  std::string s;

  static AttrValue boolean(bool v) { return AttrValue{Kind::Bool, v, 0, 0.0, {}}; }
  static AttrValue integer(std::int64_t v) { return AttrValue{Kind::Int, false, v, 0.0, {}}; }
  static AttrValue real(double v) { return AttrValue{Kind::Float, false, 0, v, {}}; }
  static AttrValue string(std::string v) { return AttrValue{Kind::Str, false, 0, 0.0, std::move(v)}; }

  bool is_bool() const { return kind == Kind::Bool; }
  bool is_int() const { return kind == Kind::Int; }
  bool is_float() const { return kind == Kind::Float; }
  bool is_str() const { return kind == Kind::Str; }
  // Python truthiness (used where Python writes `if attrs.get(...)`).
  bool truthy() const;

  friend bool operator==(const AttrValue& a, const AttrValue& b);
};

// Attributes of an op, kernel or param, kept sorted by name.
using AttrMap = std::map<std::string, AttrValue, std::less<>>;

// One attribute of an op, kernel or param, as written in the data files.
struct AttrDef {
  std::string name;
  std::string kind;  // bool, i32, i64, str, num
  std::optional<AttrValue> default_value;
  std::optional<std::int64_t> min;
  std::optional<std::int64_t> max;
  bool zero_or_pow2 = false;
  std::optional<std::vector<std::string>> enum_values;
};

// A sorted, duplicate-free list of AttrDefs from a TOML array of tables.
std::vector<AttrDef> attr_defs_from_rows(const data::NodeRef& rows, std::string_view where);

// Kernel and param attributes of ir.toml.
const std::vector<AttrDef>& kernel_attrs();
const std::vector<AttrDef>& param_attrs();

// Inclusive range of int attribute values of type ty: two's complement signed; i1 is 0..1.
std::pair<__int128, __int128> int_range(const Type& ty);

// Strings in the text format: printable ASCII without '"' and '\' (no escapes exist).
bool is_plain_string(std::string_view text);

// nullopt when value is valid for adef, else a message starting with "attribute '<name>'".
// num_type is the op's first result type (none when the op has no result).
std::optional<std::string> check_attr_value(const AttrDef& adef, const AttrValue& value, const Type& num_type);

// The same check for an integer literal too wide for int64 (the parser's 20-digit literals);
// text is the literal as written, which is Python's str() of its value.
std::optional<std::string> check_wide_int_attr(const AttrDef& adef, std::string_view text, const Type& num_type);

// Builder convenience: the canonical attribute value of a constant of type ty. Ints may be given
// signed or unsigned (wrapped to the signed form; i1 keeps 0/1), floats are rounded to nearest
// even in ty. TypeError/ValueError naming the type otherwise.
AttrValue normalize_num(__int128 value, const Type& ty);
AttrValue normalize_num(double value, const Type& ty);

// Text form "name = VALUE : TYPE" of one attribute.
std::string format_attr(std::string_view kind, std::string_view name, const AttrValue& value, const Type& num_type);

}  // namespace rocke::ir
