// ctest and sanitizer driver: untrusted config text through library's config reader, spec parsers
// and family builder twins, and the library twins from many threads (rocke/gates/robustness.hpp).
// Python twin: none (library/tests/test_conv_specs.py holds the spec rules).
//
//     rocke_library_configs_fuzz_test                 4 threads over library's config files
//     rocke_library_configs_fuzz_test [--threads N] FILE...    (platform/tools/sanitize_fuzz.py)
#include <string>
#include <vector>

#include "rocke/families/registry.hpp"
#include "rocke/gates/robustness.hpp"
#include "rocke_library/families.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) args = {"--threads", "4"};
  rocke::families::FamilyRegistry registry;  // library's families only
  rocke::library::register_library_families(registry);
  return rocke::gates::robustness_driver("rocke_library_configs_fuzz_test", registry, registry.names(),
                                         "src/rocke_library", args);
}
