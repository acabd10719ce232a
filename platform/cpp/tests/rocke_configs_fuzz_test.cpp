// ctest and sanitizer driver: untrusted config text through platform's config reader, spec parsers
// and family builder twins, and the twins from many threads (rocke/gates/robustness.hpp).
// Python twin: none (platform/tests/test_family_configs.py holds the reader's rules).
//
//     rocke_configs_fuzz_test                   hostile texts built in, and 4 threads over the config files
//     rocke_configs_fuzz_test [--threads N] FILE...    (platform/tools/sanitize_fuzz.py)
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "check.hpp"
#include "rocke/errors.hpp"
#include "rocke/families/registry.hpp"
#include "rocke/gates/robustness.hpp"
#include "rocke/ir/builder.hpp"
#include "rocke/util/strings.hpp"

namespace {

// Negative controls: the checks catch what they are for. A builder that throws something other
// than a ValueError is an escape; one whose bytes depend on the call is a threaded mismatch.
void controls() {
  rocke::families::FamilyRegistry registry;
  registry.add({"throws_logic_error", "test", {}, [](std::string_view, std::string_view) -> rocke::ir::KernelDef {
                  throw std::logic_error("planted");
                }, nullptr});
  registry.add({"refuses", "test", {}, [](std::string_view, std::string_view) -> rocke::ir::KernelDef {
                  throw rocke::ValueError("refused");
                }, nullptr});
  static std::atomic<int> calls{0};
  registry.add({"unstable", "test", {}, [](std::string_view, std::string_view) {
                  rocke::ir::Builder b(calls++ % 7 == 3 ? "k1" : "k0", {.max_workgroup_size = 64});
                  return b.finish();
                }, nullptr});
  rocke::gates::FuzzCounts counts;
  auto escapes = rocke::gates::config_text_escapes(registry, {"throws_logic_error"}, "gfx942 a=1\n", {"llvm22"}, counts);
  rocke_test::check(!escapes.empty() && escapes[0].find("planted") != std::string::npos,
                    "a non-ValueError from a builder is reported");
  rocke_test::check(
      rocke::gates::config_text_escapes(registry, {"refuses"}, "gfx942 a=1\n", {"llvm22"}, counts).empty(),
      "a ValueError is a refusal, not an escape");
  std::string lines;
  for (int i = 0; i < 20; ++i) lines += rocke::util::cat("gfx942 a=", std::to_string(i), "\n");
  auto mismatches = rocke::gates::threaded_mismatches(registry, {{"unstable", lines}}, {"llvm22"}, 4);
  rocke_test::check(!mismatches.empty(), "call-dependent bytes are a threaded mismatch");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  const auto& registry = rocke::families::registry();
  if (args.empty()) {
    controls();
    if (rocke_test::failures() != 0) return rocke_test::finish("rocke_configs_fuzz_test");
    // A few hostile config files: every reader rule and the spec parsers' extremes.
    const std::vector<std::string> texts = {
        "", "\n\n", "# only\n", "gfx942\n", "refuse\n", "refuse gfx942\n", " gfx942 block=1\n", "gfx942 block=1 \n",
        "gfx942\tblock=256\n", "gfx942 block=256\r\n", "gfx9999 block=256 dtype=f16 op=add vec=8\n",
        "gfx942 block=256 dtype=f16 op=add vec=8\n", "gfx942 block=-0 dtype=f16 op=add vec=8\n",
        "gfx942 block=99999999999999999999 dtype=f16 op=add vec=8\n", "gfx942 block=256 block=256\n",
        "gfx942 =\n", "gfx942 a==b\n", "gfx942 block=256 dtype=\xff op=add vec=8\n",
        "refuse gfx942 block=0 dtype=f16 op=add vec=8\n", "gfx942 block=9223372036854775807 dtype=f16 op=add vec=8\n",
        std::string("gfx942 block=256\0 dtype=f16", 27), "gfx1100 block=1024 dtype=bf16 op=exp2 vec=16\n",
    };
    std::filesystem::path dir = std::filesystem::temp_directory_path() / "rocke_configs_fuzz_test";
    std::filesystem::create_directories(dir);
    std::vector<std::string> files = {"--threads", "4"};
    for (std::size_t i = 0; i < texts.size(); ++i) {
      std::filesystem::path path = dir / rocke::util::cat(std::to_string(i), ".cfg");
      std::ofstream(path, std::ios::binary) << texts[i];
      files.push_back(path.string());
    }
    int rc = rocke::gates::robustness_driver("rocke_configs_fuzz_test", registry, registry.names(), "src/rocke", files);
    std::filesystem::remove_all(dir);
    return rc;
  }
  return rocke::gates::robustness_driver("rocke_configs_fuzz_test", registry, registry.names(), "src/rocke", args);
}
