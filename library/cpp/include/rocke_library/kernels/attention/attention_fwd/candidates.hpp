// rocKE library: the dispatch hook of attention_fwd -- its candidates for an attention forward
// problem, in order (largest MMA atom first; the tile of the atom's wave size).
// Python twin: rocke_library/kernels/attention/attention_fwd/candidates.py
#pragma once

#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "rocke/arch/target.hpp"
#include "rocke_library/dispatch/attention_fwd.hpp"
#include "rocke_library/kernels/candidate.hpp"

namespace rocke::library::kernels::attention::attention_fwd {

inline constexpr std::int64_t kDoubleBuffer = 0;  // one LDS stage of K and V^T: every arch's tiles fit it
inline constexpr std::int64_t kLdsPad = 8;
inline constexpr std::string_view kMmaSync = "mma_sync";  // the arch feature of NVIDIA's warp-level MMA (sm_90)

// (block_m, block_n, waves) for the arch's wave size (and mma.sync).
std::tuple<std::int64_t, std::int64_t, std::int64_t> tile(const arch::ArchTarget& target, std::int64_t head_dim);
// Whether a batched tensor's batch stride addresses anything: several batches with rows.
bool spans_batches(const dispatch::AttentionFields& problem, std::string_view tensor);
// The tensors whose batch stride is 0 where it addresses rows (the batches would alias).
std::vector<std::string> zero_batch_strides(const dispatch::AttentionFields& problem);
// The launch contract's problem (sizes and strides; a batch stride only where it addresses rows).
families::ProblemSizes contract_sizes(const dispatch::AttentionFields& problem);
std::vector<Candidate> candidates(const dispatch::AttentionFields& problem, const arch::ArchTarget& target);

}  // namespace rocke::library::kernels::attention::attention_fwd
