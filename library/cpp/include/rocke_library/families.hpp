// rocKE library: library's families in the C++ family registry.
// Python twin: rocke_library/families.py (defined, provide)
//
// Every family library defines is registered here with its C++ builder twin, so the bindings
// (rocke_library_engine.build_family) and the native emitter (rocke-library-emit) can build it;
// the Python provider decides which of them ship.
#pragma once

#include <string_view>

#include "rocke/families/launch.hpp"
#include "rocke/families/registry.hpp"

namespace rocke::library {

// Add every family library defines (attention_fwd, conv_direct_fwd, conv_igemm_dgrad, conv_igemm_fwd,
// conv_igemm_wgrad, img2col), each through its register_family.
void register_library_families(families::FamilyRegistry& registry);

// The process-wide registry (platform's families) with library's families added, once.
families::FamilyRegistry& registry_with_library();

// Python: family.launch(family.spec.from_kv(kv), problem) of a library family by name (the
// bindings' launch_contract, rocke-library-plan --launch): SpecError, LaunchError; KeyError for a
// family with no contract here.
families::LaunchContract launch_contract(std::string_view family, std::string_view kv,
                                         const families::ProblemSizes& problem);

}  // namespace rocke::library
