// rocKE C++ engine: config files, one kernel config per line, the single source of configs for
// every engine.
// Python twin: rocke/families/configs/__init__.py (ConfigLine, canonical_kv, parse_configs,
// family_configs)
//
// Format (<family>.cfg, ASCII, LF):
//
//     # comment
//     ARCH KV              a config both engines must build
//     refuse ARCH KV       a config both engines must refuse (with identical text)
//
// Every rule and message of the Python reader holds here. The canonical-form check needs the
// family's spec fields (Family::fields) and the must-build check its normalizer
// (Family::normalize); a family registered without them skips that check.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/errors.hpp"
#include "rocke/families/registry.hpp"

namespace rocke::families {

// A malformed config line; the message names the file and the line.
class ConfigError : public ValueError {
 public:
  explicit ConfigError(std::string message) : Error(std::move(message)) {}
};

struct ConfigLine {
  std::int64_t lineno = 0;
  std::string arch;
  std::string kv;
  bool refuse = false;

  // Identity of the config in goldens and gate reports: "[refuse ]ARCH KV".
  std::string key() const;
};

// The canonical text of kv when it parses by the spec's field types (without the spec's rules),
// else nullopt.
std::optional<std::string> canonical_kv(const std::vector<families::SpecField>& fields, std::string_view kv);

// Parse a config file's text; source (e.g. "gemm.cfg") prefixes every error.
std::vector<ConfigLine> parse_configs(std::string_view text, const families::Family& family, std::string_view source);

// The configs of a family from its config file's bytes: ASCII, at least one config.
std::vector<ConfigLine> family_configs(std::string_view data, const families::Family& family);

}  // namespace rocke::families
