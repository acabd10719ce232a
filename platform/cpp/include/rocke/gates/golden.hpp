// rocKE C++ engine: the golden store's check, native: emit every config of a family's config file
// for every flavor, hash the exact bytes (sha256), and compare with the family's golden file.
// Python twin: rocke/gates/golden.py (sha256_text, entry, compute, render, compare); the verdicts
// and their text are the same, so `rocke check golden` and `rocke-emit --check-golden` agree.
//
// A golden file (rocke.golden/1) holds the config file's digest, the config count and, per config
// key, the sha256 of the canonical IR and of each flavor's .ll, or of the refusal message.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/families/registry.hpp"

namespace rocke::gates {

inline constexpr std::string_view kFormat = "rocke.golden/1";
// The golden file's name, beside the config file in the family's folder (golden_name).
inline constexpr std::string_view kGoldenSuffix = ".golden.json";

// hashlib.sha256(text).hexdigest(); ValueError when text holds a CR (hashes are over LF-only bytes).
std::string sha256_text(std::string_view text);

// One config's hashes: {"ir", <flavor>...} or {"refusal"}.
using GoldenEntry = std::map<std::string, std::string>;

// The fresh golden of a family: what `rocke bless` would write.
struct Golden {
  std::string family;
  std::string config_digest;
  std::int64_t count = 0;
  std::map<std::string, GoldenEntry> configs;  // by ConfigLine::key()
};

// Emit every config of config_data (the config file's bytes) for every flavor and hash it. A config
// that crashes (an exception that is no refusal) is left out and reported in problems as
// "[KEY] crash: ...". A malformed config file throws families::ConfigError.
Golden compute(const families::Family& family, std::string_view config_data, const std::vector<std::string>& flavors,
               std::vector<std::string>& problems);

// json.dumps(golden, indent=1, sort_keys=True) + "\n": the bytes of a blessed golden file.
std::string render(const Golden& golden);

// The verdicts of rocke.gates.golden.compare: stored is the golden file's bytes (nullopt: none).
std::vector<std::string> compare(std::string_view family, const std::optional<std::string>& stored,
                                 const Golden& fresh);

// A family's config file and golden file under a directory (an installed package or a source
// tree's src/<package>): the one file named <family>.cfg anywhere below it, and <family>.golden.json
// beside it (golden_name/golden_path). A missing golden file yields a path that does not exist
// (compare reports it); no config file, or more than one, is a ValueError.
struct FamilyFiles {
  std::filesystem::path config;
  std::filesystem::path golden;
};
FamilyFiles find_family_files(const std::filesystem::path& root, std::string_view family);

}  // namespace rocke::gates
