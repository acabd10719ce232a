// Python twin: rocke/gates/catalog.py (read_catalog, Catalog.find, inside; the text of str(Path)).
#include "rocke/gates/catalog.hpp"

#include <fstream>
#include <iterator>
#include <vector>

#include "rocke/errors.hpp"
#include "rocke/gates/json.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::gates::catalog {

const CatalogEntry* Catalog::find(std::string_view arch, std::string_view spec_digest) const {
  auto per_arch = entries.find(arch);
  if (per_arch == entries.end()) return nullptr;
  auto entry = per_arch->second.find(spec_digest);
  return entry == per_arch->second.end() ? nullptr : &entry->second;
}

bool inside(std::string_view rel) {
  if (rel.empty() || rel.front() == '/' || rel.find('\\') != std::string_view::npos) return false;
  std::size_t start = 0;
  while (start <= rel.size()) {
    std::size_t end = rel.find('/', start);
    if (end == std::string_view::npos) end = rel.size();
    if (rel.substr(start, end - start) == "..") return false;
    start = end + 1;
  }
  return true;
}

std::string path_text(const std::filesystem::path& path) {
  const std::string text = path.generic_string();
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('/', start);
    if (end == std::string::npos) end = text.size();
    std::string part = text.substr(start, end - start);
    if (!part.empty() && part != ".") parts.push_back(part);
    start = end + 1;
  }
  const bool absolute = !text.empty() && text.front() == '/';
  std::string joined = util::join(parts, "/");
  if (absolute) return "/" + joined;
  return joined.empty() ? "." : joined;
}

namespace {

bool is_string(const JsonValue* value) { return value != nullptr && value->kind == JsonValue::Kind::String; }

bool object_of(const JsonValue& value, JsonValue::Kind kind) {
  if (value.kind != JsonValue::Kind::Object) return false;
  for (const auto& [key, member] : value.members) {
    if (member.kind != kind) return false;
  }
  return true;
}

}  // namespace

Catalog read_catalog(const std::filesystem::path& directory) {
  const std::filesystem::path path = directory / kIndex;
  const std::string where = path_text(path);
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    throw ValueError(util::cat(where, ": no catalog index (rocke catalog build writes one)"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ValueError(util::cat(where, ": cannot be read"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  JsonValue index;
  try {
    index = parse_json(text);
  } catch (const ValueError&) {
    throw ValueError(util::cat(where, ": not JSON"));
  }
  const JsonValue* format = index.get("format");
  if (!is_string(format) || format->text != kFormat) {
    const std::string found = format == nullptr ? "None" : format->repr();
    throw ValueError(
        util::cat(where, ": not a ", kFormat, " index (format ", found, "; rebuild it with rocke catalog build)"));
  }
  const JsonValue* flavor = index.get("flavor");
  if (!is_string(flavor)) throw ValueError(util::cat(where, ": flavor is not a string"));
  Catalog catalog;
  catalog.directory = directory;
  catalog.flavor = flavor->text;
  if (const JsonValue* skipped = index.get("skipped"); skipped != nullptr) {
    if (!object_of(*skipped, JsonValue::Kind::String)) {
      throw ValueError(util::cat(where, ": skipped is not an object of arch -> reason"));
    }
    for (const auto& [arch, reason] : skipped->members) catalog.skipped.emplace(arch, reason.text);
  }
  const JsonValue* entries = index.get("entries");
  if (entries == nullptr || !object_of(*entries, JsonValue::Kind::Object)) {
    throw ValueError(util::cat(where, ": entries is not an object of arch -> spec digest -> entry"));
  }
  for (const auto& [arch, by_digest] : entries->members) {
    auto& per_arch = catalog.entries[arch];
    for (const auto& [digest, entry] : by_digest.members) {
      if (entry.kind != JsonValue::Kind::Object) {
        throw ValueError(util::cat(where, ": entry ", arch, " ", digest, " is not an object"));
      }
      for (std::string_view name : kEntryFields) {
        if (!is_string(entry.get(name))) {
          throw ValueError(util::cat(where, ": entry ", arch, " ", digest, ": ", name, " is not a string"));
        }
      }
      const std::string& hsaco = entry.get("hsaco")->text;
      if (!inside(hsaco)) {
        throw ValueError(
            util::cat(where, ": entry ", arch, " ", digest, ": hsaco ", hsaco, " is not a path inside the catalog"));
      }
      per_arch.emplace(digest, CatalogEntry{entry.get("family")->text, entry.get("spec")->text,
                                            entry.get("kernel")->text, hsaco, entry.get("hsaco_sha256")->text});
    }
  }
  return catalog;
}

}  // namespace rocke::gates::catalog
