// rocKE library: the launch contract of attention_bwd_convert -- grid (ceil(rows * head_dim / vec /
// block), 1, 1) over the most rows of the outputs converted, one workgroup of `block` threads.
// Python twin: rocke_library/kernels/attention/attention_bwd_convert/contract.py
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rocke/families/launch.hpp"
#include "rocke_library/kernels/attention/attention_bwd_convert/spec.hpp"

namespace rocke::library::kernels::attention::attention_bwd_convert {

std::vector<std::string_view> problem_keys(const AttentionBwdConvertSpec& spec);
std::vector<std::string> stride_keys(const AttentionBwdConvertSpec& spec);
// Contract for one problem (see the Python module docstring).
families::LaunchContract launch(const AttentionBwdConvertSpec& spec, const families::ProblemSizes& problem);

}  // namespace rocke::library::kernels::attention::attention_bwd_convert
