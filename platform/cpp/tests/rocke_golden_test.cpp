// ctest: the native golden check (rocke/gates/golden.hpp) and its JSON reader, with no Python: for
// each platform family the C++ engine's fresh golden renders to the committed golden file's exact
// bytes and compares clean; planted changes (a flipped hash, a truncated config file, an extra
// config, a missing golden) each fail with the verdict rocke.gates.golden.compare gives.
// Python twin: platform/tests/test_golden_native.py (the same plants, through the installed rocke-emit).
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "check.hpp"
#include "rocke/gates/emitter_cli.hpp"
#include "rocke/families/configs.hpp"
#include "rocke/families/registry.hpp"
#include "rocke/gates/golden.hpp"
#include "rocke/arch/flavors.hpp"
#include "rocke/gates/json.hpp"
#include "rocke/util/strings.hpp"

namespace {

using rocke_test::check;
using rocke_test::check_eq;
namespace fs = std::filesystem;
using rocke::gates::JsonValue;

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream data;
  data << in.rdbuf();
  return data.str();
}

void spit(const fs::path& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
}

void json_reader() {
  JsonValue v = rocke::gates::parse_json(" {\"b\": [1, -2.5e3, true, null], \"a\": \"x\\\"\\u00e9\\ud83d\\ude00\"} ");
  check(v.kind == JsonValue::Kind::Object && v.members.size() == 2, "object with two members");
  check_eq(v.get("a")->text, "x\"\xc3\xa9\xf0\x9f\x98\x80", "string escapes decode to UTF-8");
  check_eq(v.get("b")->repr(), "[1, -2.5e3, True, None]", "array repr");
  check(v.get("c") == nullptr, "absent member");
  check_eq(rocke::gates::parse_json("{\"k\": 1, \"k\": 2}").get("k")->text, "2", "a repeated key keeps the last");
  for (const char* bad : {"", "{", "{\"a\" 1}", "[1,]", "01", "1.", "\"\x01\"", "{} x", "NaN", "\"\\q\"", "tru"}) {
    bool threw = false;
    try {
      rocke::gates::parse_json(bad);
    } catch (const rocke::ValueError&) {
      threw = true;
    }
    check(threw, rocke::util::cat("malformed JSON refused: '", bad, "'"));
  }
  std::string deep(10000, '[');
  bool threw = false;
  try {
    rocke::gates::parse_json(deep);
  } catch (const rocke::ValueError&) {
    threw = true;
  }
  check(threw, "deep nesting refused, not a stack overflow");
}

// The C++ engine's golden of each platform family is the committed file, byte for byte.
void committed_goldens() {
  const auto& registry = rocke::families::registry();
  for (const std::string& name : registry.names()) {
    rocke::gates::FamilyFiles files = rocke::gates::find_family_files("src/rocke", name);
    std::vector<std::string> problems;
    rocke::gates::Golden fresh =
        rocke::gates::compute(registry.get(name), slurp(files.config), rocke::arch::flavor_names(), problems);
    check(problems.empty(), name + ": no crash");
    check_eq(rocke::gates::render(fresh), slurp(files.golden), name + ": render(compute) == committed golden");
    check(rocke::gates::compare(name, slurp(files.golden), fresh).empty(), name + ": compare is clean");
  }
}

int run(const std::vector<std::string>& args, std::string& out) {
  std::ostringstream o;
  std::ostringstream e;
  int rc = rocke::gates::run_cli("rocke-emit", args, o, e);
  out = o.str() + e.str();
  return rc;
}

void planted_changes() {
  fs::path tmp = fs::temp_directory_path() / ("rocke_golden_test_" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  rocke::gates::FamilyFiles files = rocke::gates::find_family_files("src/rocke", "elementwise");
  const std::string cfg = slurp(files.config);
  const std::string golden = slurp(files.golden);
  fs::path c = tmp / "elementwise.cfg";
  fs::path g = tmp / "elementwise.golden.json";
  auto check_run = [&](const std::string& what, int want_rc, const std::vector<std::string>& want_lines) {
    std::string out;
    int rc = run({"--check-golden", "--family", "elementwise", "--configs", c.string(), "--golden", g.string()}, out);
    check(rc == want_rc, what + ": exit " + std::to_string(rc) + " (want " + std::to_string(want_rc) + ")\n" + out);
    for (const std::string& line : want_lines) check(out.find(line) != std::string::npos, what + ": says " + line + "\n" + out);
  };

  spit(c, cfg);
  spit(g, golden);
  check_run("unchanged", 0, {"elementwise: golden ok ("});

  // A flipped hash: the first hex digit of the first config's "ir".
  std::string flipped = golden;
  std::size_t at = flipped.find("\"ir\": \"") + 7;
  flipped[at] = flipped[at] == '0' ? '1' : '0';
  spit(g, flipped);
  check_run("flipped hash", 1, {": changed output [", "]: ir\n", "elementwise: golden FAILED (1 problems"});

  // A truncated config file (cut at a line end: it still parses, with fewer configs).
  spit(g, golden);
  std::size_t cut = cfg.rfind('\n', cfg.size() - 2);
  spit(c, cfg.substr(0, cut + 1));
  check_run("truncated config file", 1,
            {"elementwise: config file changed since the last bless (digest differs); re-bless",
             "elementwise: golden count ", "elementwise: golden has a config the file lacks ["});

  // A truncated config file cut inside a line: malformed.
  spit(c, cfg.substr(0, cfg.size() - 5));
  check_run("config cut mid-line", 1, {"elementwise.cfg line "});

  // An extra config.
  rocke::families::ConfigLine first = rocke::families::family_configs(cfg, rocke::families::registry().get("elementwise"))[0];
  std::string extra = first.kv;
  extra.replace(extra.find("block="), 9, "block=512");
  spit(c, cfg + first.arch + " " + extra + "\n");
  check_run("extra config", 1, {"elementwise: unblessed config [", "elementwise: golden count "});

  // No golden file; a golden that is not JSON; CR bytes.
  spit(c, cfg);
  fs::remove(g);
  check_run("missing golden", 1, {"elementwise: no golden file; bless it with `rocke bless --only elementwise`"});
  spit(g, golden.substr(0, golden.size() / 2));
  check_run("half a golden", 1, {"elementwise: golden file is not JSON: json: "});
  std::string crlf = golden;
  crlf.insert(crlf.find('\n'), "\r");
  spit(g, crlf);
  check_run("CR in golden", 1, {"elementwise: golden file contains CR bytes (LF only)"});

  // --root finds the committed files; bad arguments are usage errors.
  std::string out;
  check(run({"--check-golden", "--family", "gemm", "--root", "src/rocke"}, out) == 0, "--root: " + out);
  check(run({"--check-golden", "--family", "gemm"}, out) == 2, "no files: usage error");
  check(run({"--check-golden", "--family", "nope", "--root", "src/rocke"}, out) == 2, "unknown family");
  check(run({"--check-golden", "--family", "gemm", "--root", tmp.string()}, out) == 1, "--root without the family");
  check(out.find("expected one gemm.cfg under") != std::string::npos, "names the missing config file: " + out);
  check(run({"--family", "gemm", "--golden", g.string()}, out) == 2, "--golden needs --check-golden");
  fs::remove_all(tmp);
}

}  // namespace

int main() {
  json_reader();
  committed_goldens();
  planted_changes();
  return rocke_test::finish("rocke_golden_test");
}
