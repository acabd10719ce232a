// Python twin: rocke/lower/names.py
#include "rocke/lower/names.hpp"

#include "rocke/util/strings.hpp"

namespace rocke::lower {

namespace {

bool allowed(unsigned char ch) {
  return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '.';
}

}  // namespace

std::string sanitize_hint(std::string_view hint) {
  std::string out;
  out.reserve(hint.size());
  for (std::size_t i = 0; i < hint.size(); ++i) {
    auto ch = static_cast<unsigned char>(hint[i]);
    if (allowed(ch)) {
      out.push_back(static_cast<char>(ch));
      continue;
    }
    out.push_back('_');
    // Python iterates code points: the continuation bytes of this character are part of it.
    if (ch >= 0xC0) {
      while (i + 1 < hint.size() && (static_cast<unsigned char>(hint[i + 1]) & 0xC0) == 0x80) ++i;
    }
  }
  return out;
}

std::string value_name(const ir::Value& value) {
  std::string id = std::to_string(value.id);
  if (value.name.has_value() && !value.name->empty()) return util::cat("%", sanitize_hint(*value.name), ".", id);
  return util::cat("%v", id);
}

}  // namespace rocke::lower
