// rocKE library: the launch contract of attention_bwd_dq -- grid (query blocks, query heads, batch),
// one workgroup of waves * wave_size threads per block of block_m query rows.
// Python twin: rocke_library/kernels/attention/attention_bwd_dq/contract.py
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rocke/families/launch.hpp"
#include "rocke_library/kernels/attention/attention_bwd_dq/spec.hpp"

namespace rocke::library::kernels::attention::attention_bwd_dq {

std::vector<std::string> stride_keys(const AttentionBwdDqSpec& spec);
std::vector<std::string_view> problem_keys(const AttentionBwdDqSpec& spec);
// Contract for one problem (see the Python module docstring).
families::LaunchContract launch(const AttentionBwdDqSpec& spec, const families::ProblemSizes& problem);

}  // namespace rocke::library::kernels::attention::attention_bwd_dq
