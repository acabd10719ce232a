// ctest: gates::catalog::read_catalog on catalog directories written here (an index keyed by arch
// and spec digest, a skipped arch) and on bad ones (no index, not JSON, another format, a bad
// flavor, skipped, entries or entry, a code object outside the catalog), with the Python twin's
// text; Catalog::find by arch and spec digest; inside and path_text against pathlib's spelling.
// Python twin: rocke/gates/catalog.py (read_catalog; platform/tests/test_catalog_problems.py holds
// the same cases).
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "check.hpp"
#include "rocke/errors.hpp"
#include "rocke/families/spec.hpp"
#include "rocke/gates/catalog.hpp"

namespace fs = std::filesystem;
namespace catalog = rocke::gates::catalog;
using rocke_test::check;
using rocke_test::check_eq;

namespace {

void write(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

std::string entry(const std::string& hsaco, const std::string& kernel = "\"k\"") {
  return "{\"family\": \"elementwise\", \"hsaco\": \"" + hsaco + "\", \"hsaco_sha256\": \"00\", \"kernel\": " + kernel +
         ", \"spec\": \"x\", \"launch\": {}, \"resources\": {}}";
}

void refused(const fs::path& dir, const std::string& index, const std::string& message) {
  write(dir / "catalog.json", index);
  rocke_test::check_throws<rocke::ValueError>([&] { catalog::read_catalog(dir); },
                                              catalog::path_text(dir / "catalog.json") + ": " + message, message);
}

}  // namespace

int main() {
  const fs::path dir = fs::temp_directory_path() / ("rocke_catalog_test_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);

  const std::string digest = rocke::families::spec_digest("elementwise", "x");
  write(dir / "catalog.json",
        "{\"format\": \"rocke.catalog/2\", \"flavor\": \"llvm22\", \"skipped\": {\"sm_90\": \"an NVIDIA arch\"}, "
        "\"entries\": {\"gfx942\": {\"" + digest + "\": " + entry("gfx942/elementwise/k.hsaco") + "}}}");
  catalog::Catalog found = catalog::read_catalog(dir);
  check_eq(found.flavor, "llvm22", "flavor");
  check(found.skipped.size() == 1 && found.skipped.at("sm_90") == "an NVIDIA arch", "skipped");
  const catalog::CatalogEntry* hit = found.find("gfx942", digest);
  check(hit != nullptr && hit->kernel == "k" && hit->spec == "x" && hit->family == "elementwise", "find");
  check(found.find("gfx1100", digest) == nullptr && found.find("gfx942", "0") == nullptr, "find misses");
  check(hit != nullptr && found.code_object(*hit) == dir / "gfx942/elementwise/k.hsaco", "code_object");

  refused(dir / "absent", "{}", "no catalog index (rocke catalog build writes one)");
  refused(dir, "{", "not JSON");
  refused(dir, "[]", "not a rocke.catalog/2 index (format None; rebuild it with rocke catalog build)");
  refused(dir, "{\"format\": \"rocke.catalog/1\", \"entries\": []}",
          "not a rocke.catalog/2 index (format 'rocke.catalog/1'; rebuild it with rocke catalog build)");
  refused(dir, "{\"format\": \"rocke.catalog/2\", \"entries\": {}}", "flavor is not a string");
  const std::string head = "{\"format\": \"rocke.catalog/2\", \"flavor\": \"llvm22\", ";
  refused(dir, head + "\"skipped\": {\"sm_90\": 1}, \"entries\": {}}", "skipped is not an object of arch -> reason");
  refused(dir, head + "\"entries\": {\"gfx950\": []}}", "entries is not an object of arch -> spec digest -> entry");
  refused(dir, head + "\"entries\": {\"gfx950\": {\"d\": 3}}}", "entry gfx950 d is not an object");
  refused(dir, head + "\"entries\": {\"gfx950\": {\"d\": " + entry("a.hsaco", "null") + "}}}",
          "entry gfx950 d: kernel is not a string");
  refused(dir, head + "\"entries\": {\"gfx950\": {\"d\": " + entry("../x.hsaco") + "}}}",
          "entry gfx950 d: hsaco ../x.hsaco is not a path inside the catalog");

  check(catalog::inside("gfx942/f/k.hsaco") && catalog::inside("k..hsaco"), "inside");
  check(!catalog::inside("") && !catalog::inside("/k.hsaco") && !catalog::inside("a/../k") &&
            !catalog::inside("..") && !catalog::inside("a\\k"),
        "not inside");
  check_eq(catalog::path_text("out/cat/"), "out/cat", "trailing separator");
  check_eq(catalog::path_text("./out//./cat/catalog.json"), "out/cat/catalog.json", "'.' parts");
  check_eq(catalog::path_text("/tmp/x"), "/tmp/x", "absolute");
  check_eq(catalog::path_text("."), ".", "here");
  check_eq(catalog::path_text(fs::path(".") / "catalog.json"), "catalog.json", "here / name");

  fs::remove_all(dir);
  return rocke_test::finish("rocke_catalog_test");
}
