// rocKE library: launch-contract sizes shared by the attention backward families.
// Python twin: rocke_library/kernels/attention/common/launch.py
// The problem's sizes and strides checked and completed, buffer extents of the [S, H, D] tensors and
// of the per-row LSE2 / D arrays. A tensor is query-side (S_q rows, h_q heads) or key-side (S_k rows,
// h_kv heads); strides in elements, default contiguous [B, S, H, D] (batched) or [T, H, D] (varlen).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/families/launch.hpp"

namespace rocke::library::kernels::attention::common {

inline constexpr std::array<std::string_view, 6> kLengthKeys = {"seqlen_q", "seqlen_k", "max_seqlen_q",
                                                                "max_seqlen_k", "total_q", "total_k"};

// The stride argument names of the tensors, in argument order.
std::vector<std::string> stride_keys(std::string_view seq_mode, const std::vector<std::string>& tensors);

// Contiguous [B, S, H, D] (batched) or [T, H, D] (varlen) strides of every tensor.
families::ProblemSizes default_strides(std::string_view seq_mode, std::int64_t head_dim,
                                       const std::vector<std::string>& tensors,
                                       const std::vector<std::string>& query_side,
                                       const families::ProblemSizes& problem);

// The problem's sizes (exactly keys, optionally the strides), checked, with the default strides
// filled in; LaunchError for a problem the kernels cannot launch.
families::ProblemSizes problem_sizes(std::string_view family, std::string_view seq_mode, std::int64_t head_dim,
                                     const std::vector<std::string_view>& keys,
                                     const std::vector<std::string>& tensors,
                                     const std::vector<std::string>& query_side,
                                     const families::ProblemSizes& problem);

// Elements a tensor's buffer must hold: one past its last element.
__int128 tensor_elems(std::string_view seq_mode, std::int64_t head_dim, const families::ProblemSizes& sizes,
                      std::string_view tensor, bool query);

// Elements of LSE2 and D: batched [B, H_q, S_q], varlen [H_q, total_q].
__int128 stat_elems(std::string_view seq_mode, const families::ProblemSizes& sizes);

}  // namespace rocke::library::kernels::attention::common
