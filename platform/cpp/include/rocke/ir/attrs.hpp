// rocKE C++ engine: attribute values and definitions (ops, kernels, params).
// Python twin: rocke/ir/attrs.py
//
// Attribute kinds: bool, i32, i64, str, num. A num attribute holds an int or float whose type is
// the op's first result type (arith.constant's value).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rocke/data/document.hpp"
#include "rocke/ir/types.hpp"
#include "rocke/util/strings.hpp"

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

// Attributes of an op, kernel or param, kept sorted by name: the subset of std::map the engine
// uses, over one vector (an op has 0-3 attributes: one allocation per op instead of one node per
// attribute, and lookups scan a few adjacent names).
class AttrMap {
 public:
  using value_type = std::pair<std::string, AttrValue>;
  using iterator = std::vector<value_type>::iterator;
  using const_iterator = std::vector<value_type>::const_iterator;

  AttrMap() = default;
  // As std::map: sorted by name; of equal names the first one stays.
  AttrMap(std::initializer_list<value_type> items);

  iterator begin() { return items_.begin(); }
  iterator end() { return items_.end(); }
  const_iterator begin() const { return items_.begin(); }
  const_iterator end() const { return items_.end(); }
  std::size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  void clear() { items_.clear(); }
  void reserve(std::size_t count) { items_.reserve(count); }

  iterator find(std::string_view name) { return items_.begin() + index_of(name); }
  const_iterator find(std::string_view name) const { return items_.begin() + index_of(name); }
  bool contains(std::string_view name) const { return index_of(name) != items_.size(); }
  std::size_t count(std::string_view name) const { return contains(name) ? 1 : 0; }
  // std::out_of_range when name is absent.
  AttrValue& at(std::string_view name);
  const AttrValue& at(std::string_view name) const;
  AttrValue& operator[](std::string_view name);

  // Insert name = value unless name is present; the bool says whether it was inserted.
  std::pair<iterator, bool> emplace(std::string_view name, AttrValue value);
  // The same, appending without a search when name sorts after every name (the hint is end()).
  iterator emplace_hint(const_iterator hint, std::string_view name, AttrValue value);
  std::pair<iterator, bool> insert_or_assign(std::string_view name, AttrValue value);
  std::size_t erase(std::string_view name);
  iterator erase(const_iterator pos) { return items_.erase(pos); }

  friend bool operator==(const AttrMap& a, const AttrMap& b) = default;

 private:
  // The position of name, or size() when absent.
  std::size_t index_of(std::string_view name) const {
    const std::size_t n = items_.size();
    for (std::size_t i = 0; i < n; ++i) {
      if (util::same_text(items_[i].first, name)) return i;
    }
    return n;
  }
  iterator lower_bound(std::string_view name);

  std::vector<value_type> items_;
};

// An attribute kind as an enum, so that the per-op checks and the printer branch without comparing texts.
enum class AttrKind : std::uint8_t { Bool, I32, I64, Str, Num };

// One attribute of an op, kernel or param, as written in the data files.
struct AttrDef {
  std::string name;
  std::string kind;  // bool, i32, i64, str, num
  AttrKind code = AttrKind::Num;  // kind, read once with the row
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
// The same text appended to out; num_text is num_type's text (the printer keeps them spelled).
void append_attr(std::string& out, const AttrDef& adef, const AttrValue& value, std::string_view num_text);

}  // namespace rocke::ir
