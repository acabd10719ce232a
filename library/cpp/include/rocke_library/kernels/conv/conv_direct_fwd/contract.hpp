// rocKE library: the launch contract of conv_direct_fwd -- grid (pixel tiles, channel tiles, groups).
// Python twin: rocke_library/kernels/conv/conv_direct_fwd/contract.py
#pragma once

#include <string_view>
#include <vector>

#include "rocke/families/launch.hpp"
#include "rocke_library/kernels/conv/conv_direct_fwd/spec.hpp"

namespace rocke::library::kernels::conv::conv_direct_fwd {

// n, h, w, c, k, g (depthwise: n, h, w, c).
std::vector<std::string_view> problem_keys(const ConvDirectFwdSpec& spec);
// Contract for an N x H x W x C input, K x Y x X x (C/g) weights and an N x Ho x Wo x K output.
families::LaunchContract launch(const ConvDirectFwdSpec& spec, const families::ProblemSizes& problem);

}  // namespace rocke::library::kernels::conv::conv_direct_fwd
