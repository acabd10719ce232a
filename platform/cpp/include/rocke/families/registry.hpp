// rocKE C++ engine: the family builder registry, name -> C++ builder twin.
// Python twin: rocke/families/registry.py (Family, get_family); the Python registry finds
// families through entry points, this one is filled by code: platform's families register in
// register_platform_families(), a library registers its own in its engine module and emitter.
//
// A builder takes the spec's canonical text (Spec.to_kv(), e.g. "block=256 dtype=f16 op=add
// vec=8") and an arch name, and returns the KernelDef the Python builder returns, or refuses
// with rocke::ValueError carrying the Python message (SpecError's text) byte for byte.
//
// Thread safety: the registry is guarded by a mutex; families are never removed, so a Family
// reference stays valid for the life of the process.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/errors.hpp"
#include "rocke/families/refusals.hpp"
#include "rocke/ir/core.hpp"

namespace rocke::families {

// Kinds of spec fields (Spec.field_types(): int, str, bool).
enum class FieldKind { Int, Str, Bool };

struct SpecField {
  std::string name;
  FieldKind kind;
};

// build(kv, arch) -> KernelDef; ValueError with the Python refusal text.
using Builder = std::function<ir::KernelDef(std::string_view kv, std::string_view arch)>;
// Spec.from_kv(kv).to_kv(): the canonical text of a valid spec; ValueError (SpecError's text) otherwise.
using Normalizer = std::function<std::string(std::string_view kv)>;

struct Family {
  std::string name;            // also the config file's stem: <name>.cfg
  std::string owner;           // distribution: "rocke" or "rocke-library"
  std::vector<SpecField> fields;  // the spec's fields; empty skips the config reader's canonical-form check
  Builder build;
  Normalizer normalize;        // optional; the config reader checks must-build lines with it
  // The family's resource-refusal table (generated from <name>.refusals.json); nullptr: none.
  // Checked only with a normalizer (the table is keyed by the canonical kv's digest).
  const RefusalTable* refusals = nullptr;
};

// The family's kernel as every engine entry point builds it (Python twin: build_family): a spec
// its refusal table lists is refused (ValueError, refusal_message) before the builder runs;
// family.build is the bare builder.
ir::KernelDef build_family(const Family& family, std::string_view kv, std::string_view arch);

// An unknown family name. A KeyError (not a ValueError: it is no refusal).
class UnknownFamilyError : public KeyError {
 public:
  explicit UnknownFamilyError(std::string message) : Error(std::move(message)) {}
};

class FamilyRegistry {
 public:
  // ValueError "family 'X' is registered by both 'A' and 'B'" when the name is taken.
  void add(Family family);
  // The family called name, or nullptr.
  const Family* find(std::string_view name) const;
  // UnknownFamilyError "unknown family 'X'; known: a, b" (or "known: none").
  const Family& get(std::string_view name) const;
  // Registered names, sorted.
  std::vector<std::string> names() const;
  // build_family(get(name), kv, arch)
  ir::KernelDef build(std::string_view name, std::string_view kv, std::string_view arch) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, Family, std::less<>> families_;
};

// Platform's families (elementwise, gemm): each C++ builder twin is added here.
void register_platform_families(FamilyRegistry& registry);

// The process-wide registry, holding platform's families from the first call on.
FamilyRegistry& registry();

}  // namespace rocke::families
