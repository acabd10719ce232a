// Python twin: json.dumps(..., sort_keys=True, indent=2) as rocke/families/launch.py and
// rocke_library/dispatch/plan.py call it.
#include "rocke/util/json_dump.hpp"

#include <utility>

namespace rocke::util {

Json Json::of(bool value) {
  Json out;
  out.kind = Kind::Bool;
  out.boolean = value;
  return out;
}

Json Json::of(std::int64_t value) {
  Json out;
  out.kind = Kind::Int;
  out.integer = value;
  return out;
}

Json Json::of(std::string_view value) {
  Json out;
  out.kind = Kind::String;
  out.text = std::string(value);
  return out;
}

Json Json::array() {
  Json out;
  out.kind = Kind::Array;
  return out;
}

Json Json::object() {
  Json out;
  out.kind = Kind::Object;
  return out;
}

Json& Json::push(Json value) {
  items.push_back(std::move(value));
  return *this;
}

Json& Json::set(std::string_view key, Json value) {
  members.insert_or_assign(std::string(key), std::move(value));
  return *this;
}

std::string json_quote(std::string_view text) {
  static const char* hex = "0123456789abcdef";
  std::string out = "\"";
  for (char ch : text) {
    auto byte = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\r') {
      out += "\\r";
    } else if (ch == '\t') {
      out += "\\t";
    } else if (ch == '\b') {
      out += "\\b";
    } else if (ch == '\f') {
      out += "\\f";
    } else if (byte < 0x20 || byte >= 0x7f) {
      out += "\\u00";
      out += hex[byte >> 4];
      out += hex[byte & 0xF];
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

namespace {

void write(const Json& value, std::size_t depth, std::string& out) {
  const std::string inner((depth + 1) * 2, ' ');
  const std::string outer(depth * 2, ' ');
  switch (value.kind) {
    case Json::Kind::Null:
      out += "null";
      return;
    case Json::Kind::Bool:
      out += value.boolean ? "true" : "false";
      return;
    case Json::Kind::Int:
      out += std::to_string(value.integer);
      return;
    case Json::Kind::String:
      out += json_quote(value.text);
      return;
    case Json::Kind::Array: {
      if (value.items.empty()) {
        out += "[]";
        return;
      }
      out += "[\n";
      for (std::size_t i = 0; i < value.items.size(); ++i) {
        out += inner;
        write(value.items[i], depth + 1, out);
        out += i + 1 < value.items.size() ? ",\n" : "\n";
      }
      out += outer + "]";
      return;
    }
    case Json::Kind::Object: {
      if (value.members.empty()) {
        out += "{}";
        return;
      }
      out += "{\n";
      std::size_t i = 0;
      for (const auto& [key, member] : value.members) {
        out += inner + json_quote(key) + ": ";
        write(member, depth + 1, out);
        out += ++i < value.members.size() ? ",\n" : "\n";
      }
      out += outer + "}";
      return;
    }
  }
}

}  // namespace

std::string dump_json(const Json& value) {
  std::string out;
  write(value, 0, out);
  return out;
}

}  // namespace rocke::util
