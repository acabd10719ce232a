// Python twin: rocke/gates/golden.py
#include "rocke/gates/golden.hpp"

#include <algorithm>
#include <set>

#include "rocke/families/configs.hpp"
#include "rocke/gates/emitters.hpp"
#include "rocke/gates/json.hpp"
#include "rocke/util/sha256.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::gates {

namespace fs = std::filesystem;

namespace {

// json.dumps of an ASCII string (keys and hashes are ASCII; the config reader refuses the rest).
std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (char ch : text) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

GoldenEntry entry(const gates::Emission& out) {
  if (out.refusal.has_value()) return {{"refusal", sha256_text(*out.refusal)}};
  GoldenEntry hashes{{"ir", sha256_text(out.ir)}};
  for (const auto& [flavor, text] : out.ll) hashes[flavor] = sha256_text(text);
  return hashes;
}

// The fields of a stored entry (a non-object has none) as strings; a non-string value is its repr.
std::map<std::string, std::string> fields_of(const gates::JsonValue& value) {
  std::map<std::string, std::string> out;
  for (const auto& [key, item] : value.members) {
    // A non-string never equals a fresh hash: mark it with a byte no hex digest holds.
    out[key] = item.kind == gates::JsonValue::Kind::String ? item.text : util::cat(std::string_view("\x01"), item.repr());
  }
  return out;
}

}  // namespace

std::string sha256_text(std::string_view text) {
  if (text.find('\r') != std::string_view::npos) {
    throw ValueError("CR in hashed text: golden hashes are over LF-only bytes");
  }
  return util::sha256_hex(text);
}

Golden compute(const families::Family& family, std::string_view config_data, const std::vector<std::string>& flavors,
               std::vector<std::string>& problems) {
  std::vector<families::ConfigLine> configs = families::family_configs(config_data, family);
  Golden golden;
  golden.family = family.name;
  golden.config_digest = util::sha256_hex(config_data);
  golden.count = static_cast<std::int64_t>(configs.size());
  for (const families::ConfigLine& config : configs) {
    try {
      golden.configs[config.key()] = entry(gates::emit_config(family, config, flavors));
    } catch (const std::exception& exc) {
      problems.push_back(util::cat("[", config.key(), "] crash: ", exc.what()));
    }
  }
  return golden;
}

std::string render(const Golden& golden) {
  std::string out = "{\n";
  out += util::cat(" \"config_digest\": ", json_string(golden.config_digest), ",\n");
  if (golden.configs.empty()) {
    out += " \"configs\": {},\n";
  } else {
    out += " \"configs\": {\n";
    std::size_t i = 0;
    for (const auto& [key, hashes] : golden.configs) {
      out += util::cat("  ", json_string(key), ": {\n");
      std::size_t j = 0;
      for (const auto& [field, digest] : hashes) {
        out += util::cat("   ", json_string(field), ": ", json_string(digest), ++j < hashes.size() ? ",\n" : "\n");
      }
      out += ++i < golden.configs.size() ? "  },\n" : "  }\n";
    }
    out += " },\n";
  }
  out += util::cat(" \"count\": ", std::to_string(golden.count), ",\n");
  out += util::cat(" \"family\": ", json_string(golden.family), ",\n");
  out += util::cat(" \"format\": ", json_string(kFormat), "\n}\n");
  return out;
}

std::vector<std::string> compare(std::string_view family, const std::optional<std::string>& stored_bytes,
                                 const Golden& fresh) {
  if (!stored_bytes.has_value()) {
    return {util::cat(family, ": no golden file; bless it with `rocke bless --only ", family, "`")};
  }
  if (stored_bytes->find('\r') != std::string::npos) return {util::cat(family, ": golden file contains CR bytes (LF only)")};
  gates::JsonValue stored;
  try {
    stored = gates::parse_json(*stored_bytes);
  } catch (const ValueError& exc) {
    return {util::cat(family, ": golden file is not JSON: ", exc.what())};
  }
  if (stored.kind != gates::JsonValue::Kind::Object) return {util::cat(family, ": golden file is not a JSON object")};
  gates::JsonValue none;
  auto get = [&](std::string_view key) -> const gates::JsonValue& {
    const gates::JsonValue* hit = stored.get(key);
    return hit != nullptr ? *hit : none;
  };
  auto is_string = [](const gates::JsonValue& v, std::string_view text) {
    return v.kind == gates::JsonValue::Kind::String && v.text == text;
  };
  std::vector<std::string> problems;
  if (!is_string(get("format"), kFormat) || !is_string(get("family"), family)) {
    problems.push_back(util::cat(family, ": golden file has format ", get("format").repr(), " for family ",
                                 get("family").repr()));
  }
  if (!is_string(get("config_digest"), fresh.config_digest)) {
    problems.push_back(util::cat(family, ": config file changed since the last bless (digest differs); re-bless"));
  }
  const gates::JsonValue& count = get("count");
  if (count.kind != gates::JsonValue::Kind::Number || count.text != std::to_string(fresh.count)) {
    problems.push_back(util::cat(family, ": golden count ", count.repr(), " != ", std::to_string(fresh.count),
                                 " configs"));
  }
  const gates::JsonValue& old = get("configs");
  for (const auto& [key, hashes] : fresh.configs) {
    if (old.get(key) == nullptr) problems.push_back(util::cat(family, ": unblessed config [", key, "]"));
  }
  for (const auto& [key, value] : old.members) {
    if (fresh.configs.count(key) == 0) {
      problems.push_back(util::cat(family, ": golden has a config the file lacks [", key, "]"));
    }
  }
  for (const auto& [key, hashes] : fresh.configs) {
    const gates::JsonValue* stored_entry = old.get(key);
    if (stored_entry == nullptr) continue;
    std::map<std::string, std::string> before = fields_of(*stored_entry);
    std::set<std::string> names;
    for (const auto& [name, digest] : before) names.insert(name);
    for (const auto& [name, digest] : hashes) names.insert(name);
    std::vector<std::string> changed;
    for (const std::string& name : names) {
      auto a = before.find(name);
      auto b = hashes.find(name);
      bool same = a != before.end() && b != hashes.end() && a->second == b->second;
      if (!same) changed.push_back(name);
    }
    if (!changed.empty()) {
      problems.push_back(util::cat(family, ": changed output [", key, "]: ", util::join(changed, ", ")));
    }
  }
  return problems;
}

FamilyFiles find_family_files(const fs::path& root, std::string_view family) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) throw ValueError(util::cat("not a directory: '", root.string(), "'"));
  std::string cfg_name = util::cat(family, ".cfg");
  std::vector<fs::path> configs;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->path().filename() == cfg_name && it->is_regular_file(ec)) configs.push_back(it->path());
  }
  if (ec) throw ValueError(util::cat("cannot list '", root.string(), "': ", ec.message()));
  std::sort(configs.begin(), configs.end());
  if (configs.size() != 1) {
    std::vector<std::string> names;
    for (const fs::path& p : configs) names.push_back(p.string());
    throw ValueError(util::cat("expected one ", cfg_name, " under '", root.string(), "', found ",
                               std::to_string(configs.size()), configs.empty() ? std::string() : util::cat(": ", util::join(names, ", "))));
  }
  return FamilyFiles{configs[0], configs[0].parent_path() / util::cat(family, kGoldenSuffix)};
}

}  // namespace rocke::gates
