// rocKE library: the launch contract of a library family by name (what the bindings and
// rocke-library-emit --problem call).
// Python twin: Family.launch(family.spec.from_kv(kv), problem) of rocke_library's families
#pragma once

#include <string_view>

#include "rocke/families/launch.hpp"

namespace rocke::library::kernels {

// The contract of family for spec kv and problem; SpecError, LaunchError; KeyError for a family
// with no contract here.
families::LaunchContract launch_contract(std::string_view family, std::string_view kv,
                                         const families::ProblemSizes& problem);

}  // namespace rocke::library::kernels
