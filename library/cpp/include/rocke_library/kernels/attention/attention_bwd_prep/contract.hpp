// rocKE library: the launch contract of attention_bwd_prep -- grid (ceil(rows / rows_per_block), 1, 1)
// over the LSE's rows, one workgroup of `block` threads.
// Python twin: rocke_library/kernels/attention/attention_bwd_prep/contract.py
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rocke/families/launch.hpp"
#include "rocke_library/kernels/attention/attention_bwd_prep/spec.hpp"

namespace rocke::library::kernels::attention::attention_bwd_prep {

std::vector<std::string_view> problem_keys(const AttentionBwdPrepSpec& spec);
std::vector<std::string> stride_keys(const AttentionBwdPrepSpec& spec);
// Contract for one problem (see the Python module docstring).
families::LaunchContract launch(const AttentionBwdPrepSpec& spec, const families::ProblemSizes& problem);

}  // namespace rocke::library::kernels::attention::attention_bwd_prep
