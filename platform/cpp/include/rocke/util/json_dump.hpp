// rocKE C++ engine: JSON values written as Python writes them with
// json.dumps(value, sort_keys=True, indent=2): the text of launch contracts and plans.
// Python twin: json.dumps(..., sort_keys=True, indent=2) (ensure_ascii; integers, strings,
// booleans, null, lists and dicts only).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rocke::util {

struct Json {
  enum class Kind { Null, Bool, Int, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  std::int64_t integer = 0;
  std::string text;
  std::vector<Json> items;
  std::map<std::string, Json, std::less<>> members;  // sorted by key, as sort_keys=True

  static Json null() { return {}; }
  static Json of(bool value);
  static Json of(std::int64_t value);
  static Json of(std::string_view value);
  static Json of(const char* value) { return of(std::string_view(value)); }
  static Json array();
  static Json object();

  // Append to an array; set a member of an object. Both return *this.
  Json& push(Json value);
  Json& set(std::string_view key, Json value);
};

// json.dumps(value, sort_keys=True, indent=2) (no final newline).
std::string dump_json(const Json& value);

// json.dumps(text) of one string (ensure_ascii).
std::string json_quote(std::string_view text);

}  // namespace rocke::util
