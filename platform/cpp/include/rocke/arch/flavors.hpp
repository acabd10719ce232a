// rocKE C++ engine: LLVM flavors, the generated twin of data/flavors.toml.
// Python twin: rocke/arch/flavors.py
//
// A flavor is the LLVM major whose IR the lowerer writes: its spelling of the "not captured"
// parameter attribute and its intrinsic declaration overrides. [llvm] holds what every flavor and
// target shares (scalar type spellings); what differs per target is arch/targets.hpp. The lowerer
// is the only reader.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rocke::arch {

// A flavor's replacement signature for one row of the intrinsic table.
struct IntrinsicOverride {
  std::string name;
  std::string ret;
  std::vector<std::string> params;
};

// One row of flavors.toml.
struct Flavor {
  std::string name;
  std::int64_t llvm_major = 0;
  std::string llvmlite_min;
  std::string llvmlite_max;
  std::string nocapture;
  std::vector<IntrinsicOverride> intrinsic_overrides;

  // The override of the row called intrinsic, or nullptr.
  const IntrinsicOverride* override_for(std::string_view intrinsic) const;
};

// The [llvm] section: LLVM facts every flavor and target shares.
struct LlvmFacts {
  std::vector<std::pair<std::string, std::string>> scalar_types;  // (rocke.ir scalar, LLVM type)

  // ValueError "no LLVM spelling for scalar type '...'" for an unknown name.
  const std::string& llvm_scalar(std::string_view ir_name) const;
};

// Every flavor, in file order (sorted by name).
const std::vector<Flavor>& flavors();
// FLAVOR_NAMES
const std::vector<std::string>& flavor_names();
// LLVM
const LlvmFacts& llvm_facts();
// The flavor called name; ValueError "unknown flavor '...'; known flavors: ..." otherwise.
const Flavor& get_flavor(std::string_view name);

}  // namespace rocke::arch
