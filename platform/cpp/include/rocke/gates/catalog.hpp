// rocKE C++ engine: reading a code-object catalog (catalog.json, rocke.catalog/2).
// Python twin: rocke/gates/catalog.py (read_catalog, Catalog, CatalogEntry, inside): the same checks,
// in the same order, refused with the same text (a ValueError naming the index and what is wrong).
//
// Per arch, the entries are keyed by spec digest (families::spec_digest of the family and the
// spec's kv), each with its family, spec, kernel symbol and code object (a path inside the catalog
// directory) and that file's sha256. A host plans a problem and finds each launch's code object by
// its spec digest.
#pragma once

#include <array>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace rocke::gates::catalog {

inline constexpr std::string_view kFormat = "rocke.catalog/2";
inline constexpr std::string_view kIndex = "catalog.json";
inline constexpr std::array<std::string_view, 5> kEntryFields = {"family", "hsaco", "hsaco_sha256", "kernel", "spec"};

// What a host needs of one entry (Python: CatalogEntry).
struct CatalogEntry {
  std::string family;
  std::string spec;
  std::string kernel;
  std::string hsaco;  // relative to the catalog directory
  std::string hsaco_sha256;
};

// Python: Catalog.
struct Catalog {
  std::filesystem::path directory;
  std::string flavor;
  std::map<std::string, std::map<std::string, CatalogEntry, std::less<>>, std::less<>> entries;  // arch -> digest
  std::map<std::string, std::string, std::less<>> skipped;  // arch -> why its code objects were not built

  // The entry of a spec digest on arch, or nullptr.
  const CatalogEntry* find(std::string_view arch, std::string_view spec_digest) const;
  std::filesystem::path code_object(const CatalogEntry& entry) const { return directory / entry.hsaco; }
};

// A relative path that stays inside the catalog directory (no root, no '..', not empty).
bool inside(std::string_view rel);

// The text Python's str(pathlib.PurePosixPath(path)) gives: '.' parts and repeated or trailing
// separators dropped ("." for nothing left), so messages name a path as the Python twin does.
std::string path_text(const std::filesystem::path& path);

// The index of a catalog directory; ValueError naming the index and what is wrong with it.
Catalog read_catalog(const std::filesystem::path& directory);

}  // namespace rocke::gates::catalog
