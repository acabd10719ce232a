// rocKE library: the launch contract of attention_bwd_main -- grid (key blocks, query heads, batch),
// one workgroup of waves * wave_size threads per block of block_n keys.
// Python twin: rocke_library/kernels/attention/attention_bwd_main/contract.py
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rocke/families/launch.hpp"
#include "rocke_library/kernels/attention/attention_bwd_main/spec.hpp"

namespace rocke::library::kernels::attention::attention_bwd_main {

std::vector<std::string> stride_keys(const AttentionBwdMainSpec& spec);
std::vector<std::string_view> problem_keys(const AttentionBwdMainSpec& spec);
// Contract for one problem (see the Python module docstring).
families::LaunchContract launch(const AttentionBwdMainSpec& spec, const families::ProblemSizes& problem);

}  // namespace rocke::library::kernels::attention::attention_bwd_main
