// Python twin: rocke/families/spec.py
#include "rocke/families/spec.hpp"

#include <algorithm>

#include "rocke/util/sha256.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::families {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Python: _INT.fullmatch(raw) with _INT = -?(0|[1-9][0-9]{0,17})
bool int_text(std::string_view raw) {
  if (!raw.empty() && raw.front() == '-') raw.remove_prefix(1);
  if (raw == "0") return true;
  if (raw.empty() || raw.size() > 18 || raw.front() < '1' || raw.front() > '9') return false;
  return std::all_of(raw.begin(), raw.end(), is_digit);
}

// Python: _STR.fullmatch(raw) with _STR = [A-Za-z0-9_.\-]+
bool str_text(std::string_view raw) {
  auto allowed = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c) || c == '_' || c == '.' || c == '-';
  };
  return !raw.empty() && std::all_of(raw.begin(), raw.end(), allowed);
}

std::int64_t int_value(std::string_view raw) {
  bool negative = !raw.empty() && raw.front() == '-';
  if (negative) raw.remove_prefix(1);
  std::int64_t magnitude = 0;
  for (char c : raw) magnitude = magnitude * 10 + (c - '0');
  return negative ? -magnitude : magnitude;
}

std::vector<std::string_view> split_spaces(std::string_view text) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    std::size_t space = text.find(' ', start);
    if (space == std::string_view::npos) {
      parts.push_back(text.substr(start));
      return parts;
    }
    parts.push_back(text.substr(start, space - start));
    start = space + 1;
  }
}

}  // namespace

std::string format_value(const FieldValue& value) {
  std::string out;
  std::visit([&](const auto& held) { append_value(out, held); }, value);
  return out;
}

FieldValue parse_value(std::string_view family, std::string_view key, std::string_view raw, FieldKind kind) {
  if (kind == FieldKind::Bool) {
    if (raw != "0" && raw != "1") throw SpecError(util::cat(family, ": ", key, "=", raw, ": must be 0 or 1"));
    return raw == "1";
  }
  if (kind == FieldKind::Int) {
    if (!int_text(raw)) throw SpecError(util::cat(family, ": ", key, "=", raw, ": must be a decimal integer"));
    return int_value(raw);
  }
  if (!str_text(raw)) {
    throw SpecError(util::cat(family, ": ", key, "=", raw, ": must be letters, digits, '_', '.' or '-'"));
  }
  return std::string(raw);
}

namespace {

// The field names, sorted: only the unknown-key message lists them, so parse_fields sorts them only
// on that path.
std::vector<std::string> sorted_keys(const std::vector<SpecField>& types) {
  std::vector<std::string> known;
  for (const SpecField& type : types) known.push_back(type.name);
  std::sort(known.begin(), known.end());
  return known;
}

}  // namespace

std::vector<FieldValue> parse_fields(std::string_view family, const std::vector<SpecField>& types,
                                     std::string_view text) {
  std::vector<FieldValue> values(types.size());
  std::vector<char> given(types.size(), 0);
  std::size_t count = 0;
  for (std::string_view pair : text.empty() ? std::vector<std::string_view>{} : split_spaces(text)) {
    std::size_t eq = pair.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      throw SpecError(util::cat(family, ": malformed pair '", pair, "' (expected key=value)"));
    }
    std::string_view key = pair.substr(0, eq);
    std::string_view raw = pair.substr(eq + 1);
    auto type = std::find_if(types.begin(), types.end(), [&](const SpecField& t) { return util::same_text(t.name, key); });
    if (type == types.end()) {
      throw SpecError(
          util::cat(family, ": unknown key '", key, "'; known keys: ", util::join(sorted_keys(types), ", ")));
    }
    const auto at = static_cast<std::size_t>(type - types.begin());
    if (given[at] != 0) throw SpecError(util::cat(family, ": key '", key, "' given twice"));
    values[at] = parse_value(family, key, raw, type->kind);
    given[at] = 1;
    ++count;
  }
  // Every key parsed is a known one, given once: a key is missing exactly when the counts differ.
  if (count != types.size()) {
    const SpecField* missing = nullptr;  // the first missing key in sorted order
    for (std::size_t at = 0; at < types.size(); ++at) {
      if (given[at] == 0 && (missing == nullptr || types[at].name < missing->name)) missing = &types[at];
    }
    throw SpecError(util::cat(family, ": missing key '", missing->name, "'"));
  }
  return values;
}

std::string spec_digest(std::string_view family, std::string_view kv) {
  // One config asks twice (its refusal-table key, then its kernel name): the last text's digest is
  // kept per thread, so the second ask is a compare instead of a hash.
  thread_local std::string last_text;
  thread_local std::string last_digest;
  std::string text = util::cat(family, ":", kv);
  if (text != last_text) {  // a text is never empty: the first ask always hashes
    last_digest = util::sha256_hex(text);
    last_text = std::move(text);
  }
  return last_digest;
}

std::string spec_kernel_name(std::string_view family, std::string_view kv) {
  return util::cat(family, "_", spec_digest(family, kv).substr(0, 10));
}

}  // namespace rocke::families
