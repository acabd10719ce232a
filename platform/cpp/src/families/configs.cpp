// Python twin: rocke/families/configs/__init__.py
#include "rocke/families/configs.hpp"

#include <algorithm>
#include <map>

#include "rocke/arch/target.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::families {

namespace {

bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }

// _INT.fullmatch: -?(0|[1-9][0-9]{0,17})
bool int_matches(std::string_view raw) {
  if (!raw.empty() && raw[0] == '-') raw.remove_prefix(1);
  if (raw.empty() || raw.size() > 18 || !std::all_of(raw.begin(), raw.end(), is_digit)) return false;
  return raw == "0" || raw[0] != '0';
}

// _STR.fullmatch: [A-Za-z0-9_.\-]+
bool str_matches(std::string_view raw) {
  if (raw.empty()) return false;
  return std::all_of(raw.begin(), raw.end(), [](char ch) {
    return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || is_digit(ch) || ch == '_' || ch == '.' ||
           ch == '-';
  });
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    std::size_t hit = text.find(sep, start);
    if (hit == std::string_view::npos) {
      out.push_back(text.substr(start));
      return out;
    }
    out.push_back(text.substr(start, hit - start));
    start = hit + 1;
  }
}

// str.split(" ", maxsplit)
std::vector<std::string_view> split_max(std::string_view text, std::size_t maxsplit) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (out.size() < maxsplit) {
    std::size_t hit = text.find(' ', start);
    if (hit == std::string_view::npos) break;
    out.push_back(text.substr(start, hit - start));
    start = hit + 1;
  }
  out.push_back(text.substr(start));
  return out;
}

}  // namespace

std::string ConfigLine::key() const { return util::cat(refuse ? "refuse " : "", arch, " ", kv); }

std::optional<std::string> canonical_kv(const std::vector<families::SpecField>& fields, std::string_view kv) {
  std::map<std::string, std::string, std::less<>> values;
  for (std::string_view pair : split(kv, ' ')) {
    std::size_t eq = pair.find('=');
    if (eq == std::string_view::npos) return std::nullopt;
    std::string_view key = pair.substr(0, eq);
    std::string_view raw = pair.substr(eq + 1);
    auto field = std::find_if(fields.begin(), fields.end(), [&](const families::SpecField& f) { return f.name == key; });
    if (field == fields.end() || values.count(key) != 0) return std::nullopt;
    if (field->kind == families::FieldKind::Bool) {
      if (raw != "0" && raw != "1") return std::nullopt;
    } else if (field->kind == families::FieldKind::Int) {
      if (!int_matches(raw) || raw == "-0") return std::nullopt;
    } else if (!str_matches(raw)) {
      return std::nullopt;
    }
    values.emplace(std::string(key), std::string(raw));
  }
  if (values.size() != fields.size()) return std::nullopt;  // every field named, none twice
  std::vector<std::string> pairs;
  for (const auto& [key, raw] : values) pairs.push_back(util::cat(key, "=", raw));
  return util::join(pairs, " ");
}

std::vector<ConfigLine> parse_configs(std::string_view text, const families::Family& family, std::string_view source) {
  std::vector<ConfigLine> lines;
  std::int64_t lineno = 0;
  for (std::string_view line : split(text, '\n')) {
    ++lineno;
    std::string where = util::cat(source, " line ", std::to_string(lineno));
    if (line.find('\r') != std::string_view::npos || line.find('\t') != std::string_view::npos) {
      throw ConfigError(util::cat(where, ": carriage returns and tabs are not allowed"));
    }
    if (line.empty() || line[0] == '#') continue;
    if (line.front() == ' ' || line.back() == ' ') throw ConfigError(util::cat(where, ": leading or trailing spaces"));
    bool refuse_prefix = line.substr(0, 7) == "refuse ";
    std::vector<std::string_view> words = split_max(line, refuse_prefix ? 2 : 1);
    bool refuse = words[0] == "refuse";
    if (refuse) words.erase(words.begin());
    if (words.size() != 2) throw ConfigError(util::cat(where, ": expected 'ARCH KV' or 'refuse ARCH KV'"));
    std::string_view arch = words[0];
    std::string_view kv = words[1];
    const std::vector<std::string>& archs = arch::arch_names();
    if (std::find(archs.begin(), archs.end(), arch) == archs.end()) {
      throw ConfigError(util::cat(where, ": unknown arch '", arch, "'; known: ", util::join(archs, ", ")));
    }
    // A must-build line is read by the spec itself (its normalizer), which also canonicalizes;
    // a refused one (or a family without a normalizer) by the field types alone.
    std::optional<std::string> canonical;
    if (!refuse && family.normalize) {
      try {
        canonical = family.normalize(kv);
      } catch (const ValueError& exc) {
        throw ConfigError(util::cat(where, ": ", exc.what(), " (mark the line 'refuse' if that is intended)"));
      }
    } else {
      canonical = family.fields.empty() ? std::optional<std::string>(std::string(kv)) : canonical_kv(family.fields, kv);
    }
    if (!canonical.has_value()) {
      throw ConfigError(util::cat(where, ": expected the ", family.name, " spec as canonical key=value pairs"));
    }
    if (*canonical != kv) throw ConfigError(util::cat(where, ": not canonical; write '", *canonical, "'"));
    lines.push_back(ConfigLine{lineno, std::string(arch), std::string(kv), refuse});
  }
  return lines;
}

std::vector<ConfigLine> family_configs(std::string_view data, const families::Family& family) {
  std::string source = util::cat(family.name, ".cfg");
  if (std::any_of(data.begin(), data.end(), [](char ch) { return static_cast<unsigned char>(ch) >= 0x80; })) {
    throw ConfigError(util::cat(source, ": not ASCII"));
  }
  std::vector<ConfigLine> lines = parse_configs(data, family, source);
  if (lines.empty()) throw ConfigError(util::cat(source, ": no configs"));
  return lines;
}

}  // namespace rocke::families

