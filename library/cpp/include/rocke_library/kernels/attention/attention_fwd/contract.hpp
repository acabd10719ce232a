// rocKE library: the launch contract of attention_fwd -- grid (query blocks, query heads, batch),
// one workgroup of waves * wave_size threads per block of block_m query rows.
// Python twin: rocke_library/kernels/attention/attention_fwd/contract.py
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rocke/families/launch.hpp"
#include "rocke_library/kernels/attention/attention_fwd/spec.hpp"

namespace rocke::library::kernels::attention::attention_fwd {

// The optional stride keys {q,k,v,o}_stride_{b,s,h} (varlen: {s,h}).
std::vector<std::string> stride_keys(const AttentionFwdSpec& spec);
// The required size keys of the spec's seq_mode.
std::vector<std::string_view> problem_keys(const AttentionFwdSpec& spec);
// Contract for one problem (see the Python module docstring).
families::LaunchContract launch(const AttentionFwdSpec& spec, const families::ProblemSizes& problem);

}  // namespace rocke::library::kernels::attention::attention_fwd
