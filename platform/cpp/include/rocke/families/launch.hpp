// rocKE C++ engine: the launch template of a built kernel, what a host needs to launch it besides
// the problem (symbol, arguments in order with IR types, block bound, spec), as JSON.
// Python twin: rocke/families/launch.py (launch_template, template_json), byte for byte.
#pragma once

#include <string>
#include <string_view>

#include "rocke/ir/core.hpp"

namespace rocke::families {

inline constexpr std::string_view kTemplateFormat = "rocke.launch-template/1";

// template_json(launch_template(kernel, family=, spec=, arch=)): sorted keys, two-space indent, LF.
std::string launch_template_json(const ir::KernelDef& kernel, std::string_view family, std::string_view spec,
                                 std::string_view arch);

}  // namespace rocke::families
