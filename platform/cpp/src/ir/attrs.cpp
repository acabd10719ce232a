// Python twin: rocke/ir/attrs.py
#include "rocke/ir/attrs.hpp"

#include <algorithm>

#include "rocke/errors.hpp"
#include "rocke/ir/attr_text.hpp"
#include "rocke/ir/facts.hpp"
#include "rocke/ir/floats.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::ir {

namespace {

constexpr std::string_view kAttrKinds[] = {"bool", "i32", "i64", "str", "num"};
constexpr std::string_view kRowKeys[] = {"name", "type", "default", "min", "max", "zero_or_pow2", "enum"};

// Python's type name of an attribute value, as check_attr_value reports it.
std::string value_kind(const AttrValue& value) {
  switch (value.kind) {
    case AttrValue::Kind::Bool: return "bool";
    case AttrValue::Kind::Int: return "int";
    case AttrValue::Kind::Float: return "float";
    case AttrValue::Kind::Str: return "str";
  }
  return "?";
}

int int_kind_bits(std::string_view kind) { return kind == "i32" ? 32 : (kind == "i64" ? 64 : 0); }

// kAttrKinds[code] is the kind's text.
AttrKind attr_kind_code(std::string_view kind) {
  auto at = std::find(std::begin(kAttrKinds), std::end(kAttrKinds), kind);
  return static_cast<AttrKind>(at - std::begin(kAttrKinds));
}

std::string optional_int_text(const std::optional<std::int64_t>& v) {
  return v.has_value() ? std::to_string(*v) : std::string("None");
}

AttrValue value_from_node(const data::NodeRef& node) {
  switch (node.kind()) {
    case data::Kind::Boolean: return AttrValue::boolean(node.boolean());
    case data::Kind::Integer: return AttrValue::integer(node.integer());
    case data::Kind::Float: return AttrValue::real(node.real());
    case data::Kind::String: return AttrValue::string(std::string(node.str()));
    default: break;
  }
  throw DataError(node.path() + ": an attribute default must be a bool, int, float or string");
}

AttrDef attr_def_from_row(const data::NodeRef& row, std::string_view where) {
  for (std::size_t i = 0; i < row.size(); ++i) {
    std::string_view key = row.key_at(i);
    if (std::find(std::begin(kRowKeys), std::end(kRowKeys), key) == std::end(kRowKeys)) {
      throw DataError(std::string(where) + ": attribute row has unknown key '" + std::string(key) + "'");
    }
  }
  AttrDef adef;
  adef.name = std::string(row["name"].str());
  adef.kind = std::string(row["type"].str());
  if (std::find(std::begin(kAttrKinds), std::end(kAttrKinds), adef.kind) == std::end(kAttrKinds)) {
    throw DataError(std::string(where) + ": attribute '" + adef.name + "' has unknown type '" + adef.kind + "'");
  }
  adef.code = attr_kind_code(adef.kind);
  if (row.has("default")) adef.default_value = value_from_node(row["default"]);
  if (row.has("min")) adef.min = row["min"].integer();
  if (row.has("max")) adef.max = row["max"].integer();
  if (row.has("zero_or_pow2")) adef.zero_or_pow2 = row["zero_or_pow2"].boolean();
  if (row.has("enum")) {
    data::NodeRef values = row["enum"];
    std::vector<std::string> names;
    for (std::size_t i = 0; i < values.size(); ++i) names.emplace_back(values.at(i).str());
    adef.enum_values = std::move(names);
  }
  if (int_kind_bits(adef.kind) != 0 && (!adef.min.has_value() || !adef.max.has_value())) {
    throw DataError(std::string(where) + ": integer attribute '" + adef.name + "' needs both min and max");
  }
  if (adef.default_value.has_value() && adef.kind != "num") {
    std::optional<std::string> problem = check_attr_value(adef, *adef.default_value, Type());
    if (problem.has_value()) throw DataError(std::string(where) + ": default of " + *problem);
  }
  return adef;
}

}  // namespace

AttrMap::AttrMap(std::initializer_list<value_type> items) {
  items_.reserve(items.size());
  for (const value_type& item : items) emplace(item.first, item.second);
}

AttrMap::iterator AttrMap::lower_bound(std::string_view name) {
  return std::lower_bound(items_.begin(), items_.end(), name,
                          [](const value_type& item, std::string_view key) { return item.first < key; });
}

AttrValue& AttrMap::at(std::string_view name) {
  std::size_t index = index_of(name);
  if (index == items_.size()) throw std::out_of_range("AttrMap::at");
  return items_[index].second;
}

const AttrValue& AttrMap::at(std::string_view name) const {
  std::size_t index = index_of(name);
  if (index == items_.size()) throw std::out_of_range("AttrMap::at");
  return items_[index].second;
}

AttrValue& AttrMap::operator[](std::string_view name) { return emplace(name, AttrValue{}).first->second; }

std::pair<AttrMap::iterator, bool> AttrMap::emplace(std::string_view name, AttrValue value) {
  if (items_.empty() || items_.back().first < name) {
    items_.emplace_back(std::string(name), std::move(value));
    return {items_.end() - 1, true};
  }
  iterator it = lower_bound(name);
  if (it != items_.end() && it->first == name) return {it, false};
  return {items_.emplace(it, std::string(name), std::move(value)), true};
}

AttrMap::iterator AttrMap::emplace_hint(const_iterator /*hint*/, std::string_view name, AttrValue value) {
  return emplace(name, std::move(value)).first;
}

std::pair<AttrMap::iterator, bool> AttrMap::insert_or_assign(std::string_view name, AttrValue value) {
  auto [it, inserted] = emplace(name, AttrValue{});
  it->second = std::move(value);
  return {it, inserted};
}

std::size_t AttrMap::erase(std::string_view name) {
  std::size_t index = index_of(name);
  if (index == items_.size()) return 0;
  items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(index));
  return 1;
}

bool AttrValue::truthy() const {
  switch (kind) {
    case Kind::Bool: return b;
    case Kind::Int: return i != 0;
    case Kind::Float: return f != 0.0;
    case Kind::Str: return !s.empty();
  }
  return false;
}

bool operator==(const AttrValue& a, const AttrValue& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case AttrValue::Kind::Bool: return a.b == b.b;
    case AttrValue::Kind::Int: return a.i == b.i;
    case AttrValue::Kind::Float: return float_to_bits(a.f) == float_to_bits(b.f);
    case AttrValue::Kind::Str: return a.s == b.s;
  }
  return false;
}

std::vector<AttrDef> attr_defs_from_rows(const data::NodeRef& rows, std::string_view where) {
  std::vector<AttrDef> defs;
  for (std::size_t i = 0; i < rows.size(); ++i) defs.push_back(attr_def_from_row(rows.at(i), where));
  for (std::size_t i = 1; i < defs.size(); ++i) {
    if (!(defs[i - 1].name < defs[i].name)) {
      throw DataError(std::string(where) + ": attributes must be unique and sorted by name");
    }
  }
  return defs;
}

const std::vector<AttrDef>& kernel_attrs() {
  static const std::vector<AttrDef> defs = attr_defs_from_rows(ir_facts()["kernel_attr"], "ir.toml kernel_attr");
  return defs;
}

const std::vector<AttrDef>& param_attrs() {
  static const std::vector<AttrDef> defs = attr_defs_from_rows(ir_facts()["param_attr"], "ir.toml param_attr");
  return defs;
}

std::pair<__int128, __int128> int_range(const Type& ty) {
  if (ty.bits() == 1) return {0, 1};
  __int128 half = static_cast<__int128>(1) << (ty.bits() - 1);
  return {-half, half - 1};
}

bool is_plain_string(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char ch) { return ch >= ' ' && ch <= '~' && ch != '"' && ch != '\\'; });
}

std::optional<std::string> check_attr_value(const AttrDef& adef, const AttrValue& value, const Type& num_type) {
  // The message parts are built only for a message (this runs for every attribute of every op).
  auto head = [&] { return "attribute '" + adef.name + "'"; };
  const std::string& kind = adef.kind;
  using Kind = AttrValue::Kind;
  auto got = [&] { return value_kind(value); };  // Python's type name of the value, for messages
  const AttrKind code = adef.code;
  if (code == AttrKind::Bool) {
    if (value.kind == Kind::Bool) return std::nullopt;
    return head() + " must be a bool value, got " + got();
  }
  if (code == AttrKind::Str) {
    if (value.kind != Kind::Str) return head() + " must be a str value, got " + got();
    if (!is_plain_string(value.s)) return head() + " must be printable ASCII without '\"' or '\\'";
    if (adef.enum_values.has_value() &&
        std::find(adef.enum_values->begin(), adef.enum_values->end(), value.s) == adef.enum_values->end()) {
      return head() + " = '" + value.s + "' is not one of: " + util::join(*adef.enum_values, ", ");
    }
    return std::nullopt;
  }
  if (code == AttrKind::I32 || code == AttrKind::I64) {
    const int bits = code == AttrKind::I32 ? 32 : 64;
    if (value.kind != Kind::Int) return head() + " must be an " + kind + " value, got " + got();
    const __int128 v = value.i;
    const __int128 half = static_cast<__int128>(1) << (bits - 1);
    auto shown = [&] { return std::to_string(value.i); };
    if (!(-half <= v && v < half)) return head() + " = " + shown() + " does not fit in " + kind;
    if ((adef.min.has_value() && v < *adef.min) || (adef.max.has_value() && v > *adef.max)) {
      return head() + " = " + shown() + " is out of range " + optional_int_text(adef.min) + ".." +
             optional_int_text(adef.max);
    }
    if (adef.zero_or_pow2 && (v & (v - 1)) != 0) return head() + " = " + shown() + " must be 0 or a power of two";
    return std::nullopt;
  }
  // num: typed by the op's first result type
  if (!num_type.is_scalar()) {
    return head() + " needs an int or float scalar result type, got " + (num_type.is_none() ? "none" : num_type.text());
  }
  auto type_text = [&] { return num_type.text(); };
  if (num_type.is_int()) {
    if (value.kind != Kind::Int) return head() + " must be an int value for type " + type_text() + ", got " + got();
    auto [low, high] = int_range(num_type);
    if (!(low <= value.i && value.i <= high)) {
      return head() + " = " + std::to_string(value.i) + " does not fit in " + type_text() + " (range " +
             util::int_text(low) + ".." + util::int_text(high) + ")";
    }
    return std::nullopt;
  }
  if (value.kind != Kind::Float) return head() + " must be a float value for type " + type_text() + ", got " + got();
  if (!is_representable(value.f, num_type.exp_bits(), num_type.man_bits())) {
    return head() + " = " + format_float_hex(value.f) + " is not exactly representable in " + type_text();
  }
  return std::nullopt;
}

std::optional<std::string> check_wide_int_attr(const AttrDef& adef, std::string_view text, const Type& num_type) {
  const std::string head = "attribute '" + adef.name + "'";
  const std::string& kind = adef.kind;
  if (kind == "bool" || kind == "str") return head + " must be a " + kind + " value, got int";
  if (int_kind_bits(kind) != 0) return head + " = " + std::string(text) + " does not fit in " + kind;
  if (!num_type.is_scalar()) {
    return head + " needs an int or float scalar result type, got " + (num_type.is_none() ? "none" : num_type.text());
  }
  const std::string type_text = num_type.text();
  if (num_type.is_int()) {
    auto [low, high] = int_range(num_type);
    return head + " = " + std::string(text) + " does not fit in " + type_text + " (range " + util::int_text(low) +
           std::string("..") + util::int_text(high) + ")";
  }
  return head + " must be a float value for type " + type_text + ", got int";
}

namespace {

void require_numeric_type(const Type& ty) {
  if (!ty.is_scalar()) {
    throw TypeError("arith.constant: type must be an int or float scalar type, got " +
                    (ty.is_none() ? std::string("NoneType") : ty.text()));
  }
}

}  // namespace

AttrValue normalize_num(__int128 value, const Type& ty) {
  require_numeric_type(ty);
  if (ty.is_int()) {
    const int bits = ty.bits();
    const __int128 low = -(static_cast<__int128>(1) << (bits - 1));
    const __int128 high = (static_cast<__int128>(1) << bits) - 1;
    if (!(low <= value && value <= high)) {
      throw ValueError("arith.constant: value " + util::int_text(value) + " does not fit in " + ty.text());
    }
    if (bits == 1) return AttrValue::integer(static_cast<std::int64_t>(value & 1));
    __int128 wrapped = value & ((static_cast<__int128>(1) << bits) - 1);
    if ((wrapped >> (bits - 1)) != 0) wrapped -= static_cast<__int128>(1) << bits;
    return AttrValue::integer(static_cast<std::int64_t>(wrapped));
  }
  return AttrValue::real(round_to_format(static_cast<double>(value), ty.exp_bits(), ty.man_bits()));
}

AttrValue normalize_num(double value, const Type& ty) {
  require_numeric_type(ty);
  if (ty.is_int()) throw TypeError("arith.constant: " + ty.text() + " constant needs an int value, got float");
  return AttrValue::real(round_to_format(value, ty.exp_bits(), ty.man_bits()));
}

void append_attr(std::string& out, const AttrDef& adef, const AttrValue& value, std::string_view num_text) {
  struct StringWriter {
    std::string& text;
    void put(std::string_view part) { text += part; }
    void put_int(std::int64_t number) { util::append_int(text, number); }
  } writer{out};
  write_attr(writer, adef, value, [num_text](StringWriter& w) { w.put(num_text); });
}

std::string format_attr(std::string_view kind, std::string_view name, const AttrValue& value, const Type& num_type) {
  std::string out(name);
  if (kind == "bool") return out + " = " + (value.truthy() ? "true" : "false") + " : bool";
  if (kind == "str") return out + " = \"" + value.s + "\" : str";
  if (kind == "num") {
    std::string shown = value.is_float() ? format_float_hex(value.f) : std::to_string(value.i);
    return out + " = " + shown + " : " + (num_type.is_none() ? std::string("?") : num_type.text());
  }
  return out + " = " + std::to_string(value.i) + " : " + std::string(kind);
}

}  // namespace rocke::ir
