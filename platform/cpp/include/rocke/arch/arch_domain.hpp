// rocKE C++ engine: the arch-domain table (data/arch_domain.toml): for each flavor, where each
// intrinsic of the intrinsic table can be compiled.
// Python twin: rocke/arch/arch_domain.py
//
// Statuses: "ok" (LLVM selects it), "arch-absent" (LLVM cannot compile it for the arch),
// "name-absent" (LLVM does not know it). Entries are keyed by declaration name; an overloaded
// intrinsic has one entry per scalar element type, which also covers its vectors.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rocke::arch {

// Status of declaration name on arch under flavor, or nullopt when the table has no entry.
std::optional<std::string> arch_domain_status(std::string_view name, std::string_view arch, std::string_view flavor);

}  // namespace rocke::arch
