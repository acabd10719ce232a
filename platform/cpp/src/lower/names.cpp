// Python twin: rocke/lower/names.py
#include "rocke/lower/names.hpp"

#include <array>

#include "rocke/util/strings.hpp"

namespace rocke::lower {

namespace {

// [A-Za-z0-9_.] as a table by byte (one load per character).
constexpr std::array<bool, 256> kAllowed = [] {
  std::array<bool, 256> table{};
  for (int ch = 0; ch < 256; ++ch) {
    table[ch] = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' ||
                ch == '.';
  }
  return table;
}();

bool allowed(unsigned char ch) { return kAllowed[ch]; }

// The length of hint's leading run of allowed characters (all of it, as a rule).
std::size_t clean_prefix(std::string_view hint) {
  std::size_t clean = 0;
  while (clean < hint.size() && allowed(static_cast<unsigned char>(hint[clean]))) ++clean;
  return clean;
}

// sanitize_hint(hint) appended to out.
void append_sanitized(std::string& out, std::string_view hint) {
  // Hints are already clean as a rule: then the whole hint is appended at once.
  const std::size_t clean = clean_prefix(hint);
  out.append(hint.substr(0, clean));
  for (std::size_t i = clean; i < hint.size(); ++i) {
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
}

}  // namespace

std::string sanitize_hint(std::string_view hint) {
  std::string out;
  out.reserve(hint.size());
  append_sanitized(out, hint);
  return out;
}

std::string value_name(const ir::Value& value) {
  std::string out;
  append_value_name(out, value);
  return out;
}

void append_value_name(std::string& out, const ir::Value& value) {
  // "%NAME." (or "%v") and the id are written into one buffer and appended at once; a name that
  // needs sanitizing (or is long) is appended on its own first.
  constexpr std::size_t kInlineName = 64;
  char buf[kInlineName + 24];
  char* at = buf;
  *at++ = '%';
  if (value.name.has_value() && !value.name->empty()) {
    std::string_view name = *value.name;
    if (name.size() <= kInlineName && clean_prefix(name) == name.size()) {
      at = util::copy_text(at, name.data(), name.size());
    } else {
      out.push_back('%');
      append_sanitized(out, name);
      at = buf;
    }
    *at++ = '.';
  } else {
    *at++ = 'v';
  }
  out.append(buf, util::write_int(at, value.id));
}

}  // namespace rocke::lower
