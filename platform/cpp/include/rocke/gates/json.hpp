// rocKE C++ engine: a strict reader of JSON text (RFC 8259), enough for the files the gates
// read (golden files: objects, strings, integers).
// Python twin: rocke/gates/golden.py (the json.loads it reads golden files with)
//
// Numbers keep their text; objects keep their members sorted by key (a repeated key keeps the
// last value, as json.loads does). Malformed text is a ValueError naming the byte offset.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/errors.hpp"

namespace rocke::gates {

struct JsonValue {
  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  std::string text;  // String: the decoded UTF-8 bytes; Number: its literal text
  std::vector<JsonValue> items;
  std::map<std::string, JsonValue, std::less<>> members;

  // The member called key of an object, or nullptr (also when this is not an object).
  const JsonValue* get(std::string_view key) const;
  // Python's repr() of the json.loads value ("None" for a null, 'text' for a string).
  std::string repr() const;
  bool operator==(const JsonValue& other) const;
};

// ValueError "json: <what> at byte N" for malformed text.
JsonValue parse_json(std::string_view text);

}  // namespace rocke::gates
