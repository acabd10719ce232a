// rocKE C++ engine: untrusted config text through every family's config reader, spec parser and
// builder twin, and the family twins run from many threads at once: the contracts the sanitizer
// run (platform/tools/sanitize_fuzz.py) checks under ASan + UBSan.
// Python twin: none (the Python engine's rules are the same contracts: a ConfigError, a SpecError
// or another ValueError, never anything else).
//
// * config_text_escapes: the text as a family's config file (families::family_configs), and each of
//   its lines, loosely split into "[refuse ]ARCH KV", through the spec's canonical-form check, its
//   normalizer, its builder, the printer and the lowerer for every flavor. Only rocke::ValueError
//   (ConfigError, SpecError, UnknownArchError, VerifyError, LowerError) may escape.
// * threaded_mismatches: every config of the given config files built, printed and lowered by
//   `threads` threads at once (each in its own order), compared with one thread's bytes.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rocke/families/registry.hpp"

namespace rocke::gates {

struct FuzzCounts {
  std::size_t inputs = 0;        // (text, family) pairs
  std::size_t config_files = 0;  // texts a family's config reader accepted
  std::size_t lines = 0;         // (line, family) pairs run through the spec parser and builder
  std::size_t built = 0;         // of those, built and lowered for every flavor
};

// What escaped that must not have (one line each); empty when the text was handled.
std::vector<std::string> config_text_escapes(const families::FamilyRegistry& registry,
                                             const std::vector<std::string>& families, std::string_view text,
                                             const std::vector<std::string>& flavors, FuzzCounts& counts);

// (family, config file text) pairs run from `threads` threads; a line per config whose bytes
// differ from the single-threaded run or that threw in a thread. Empty when all agree.
std::vector<std::string> threaded_mismatches(const families::FamilyRegistry& registry,
                                             const std::vector<std::pair<std::string, std::string>>& config_files,
                                             const std::vector<std::string>& flavors, unsigned threads);

// The sanitizer run's driver (a ctest program calls it with its registry and families):
//
//     PROGRAM FILE...          every file's text through config_text_escapes for every family
//     PROGRAM --threads N      every family's config file (found under root) from N threads
//
// Prints counts and "ok" (exit 0), or each failure on stderr and "FAILED" (exit 1).
int robustness_driver(std::string_view program, const families::FamilyRegistry& registry,
                      const std::vector<std::string>& families, const std::filesystem::path& root,
                      const std::vector<std::string>& args);

}  // namespace rocke::gates
