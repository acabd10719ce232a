// rocKE C++ engine: targets, the generated twin of data/targets.toml.
// Python twin: rocke/arch/targets.py
//
// A target row holds what the lowerer writes per vendor target: the triple, the kernel calling
// convention, the LLVM type of a buffer resource, the address space numbers and the datalayout of
// each flavor's LLVM. Every arch names its target (ArchTarget::vendor_target()).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rocke::arch {

// One row of targets.toml.
struct Target {
  std::size_t index = 0;  // its position in targets(), a key for per-target caches
  std::string name;
  std::string vendor;
  std::string triple;
  std::string kernel_cc;
  std::string toolchain;
  std::string rsrc_type;
  std::string lds_pool;  // the name of the module's LDS pool global
  std::int64_t static_lds_bytes = 0;  // the most LDS a module declares statically; 0 = no limit below the arch's
  std::vector<std::pair<std::string, std::int64_t>> address_spaces;  // (rocke.ir space, number)
  std::vector<std::pair<std::string, std::string>> datalayouts;      // (flavor, datalayout)

  // ValueError "no LLVM address space for '...'" for an unknown space.
  std::int64_t address_space(std::string_view ir_space) const;
  // ValueError "target '...' has no datalayout for flavor '...'" for an unknown flavor.
  const std::string& datalayout(std::string_view flavor) const;
};

// Every target, in file order (sorted by name).
const std::vector<Target>& targets();
// TARGET_NAMES
const std::vector<std::string>& target_names();
// The target called name; ValueError "unknown target '...'; known targets: ..." otherwise.
const Target& get_target(std::string_view name);

}  // namespace rocke::arch
