// rocKE library: the dispatch hook of the attention backward (served through attention_bwd_main) --
// candidate launch sets prep -> main -> [dq] -> [convert] for an attention_bwd problem, in order
// (dq_mode split first, then atomic; atoms largest first; the tile of the atom's wave size).
// Python twin: rocke_library/kernels/attention/attention_bwd_main/candidates.py
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "rocke/arch/target.hpp"
#include "rocke_library/dispatch/attention_fwd.hpp"
#include "rocke_library/kernels/candidate.hpp"

namespace rocke::library::kernels::attention::attention_bwd_main {

inline constexpr std::array<std::string_view, 2> kDqModeOrder = {"split", "atomic"};
inline constexpr std::int64_t kLdsPad = 8;
// dq keeps Q and dO in registers up to this many VGPRs a lane, else in LDS
inline constexpr std::int64_t kQdoMaxVgprs = 64;
inline constexpr std::int64_t kElementwiseBlock = 256;  // prep and convert threads per workgroup
// wave32 main: head_dim * d_chunk at most this (one chunk of 128 spills; see candidates.py)
inline constexpr std::int64_t kWave32DkvBudget = 4096;
inline constexpr std::string_view kMmaSync = "mma_sync";  // the arch feature of NVIDIA's warp-level MMA (sm_90)
inline constexpr std::int64_t kMmaSyncDChunk = 64;  // mma.sync main: d_chunk at most this (128 spills at LLVM 22)
inline constexpr std::int64_t kPrepMaxVec = 8;          // 16 bytes of f16 / bf16: the widest access
inline constexpr std::int64_t kConvertMaxVec = 4;       // one 16-byte f32 workspace access

// What every backward family has: the set's dtypes and head dims (Python: INPUT_DTYPES, HEAD_DIMS).
const std::vector<std::string_view>& input_dtypes();
const std::vector<std::int64_t>& head_dims();

// (block_m, block_n, waves) of attention_bwd_main for the arch's wave size (and mma.sync).
std::tuple<std::int64_t, std::int64_t, std::int64_t> main_tile(const arch::ArchTarget& target, std::int64_t head_dim);
// attention_bwd_main's d_chunk: head_dim on wave64, at most kMmaSyncDChunk with mma.sync, within
// kWave32DkvBudget on the other wave32 archs.
std::int64_t main_d_chunk(const arch::ArchTarget& target, std::int64_t head_dim);
// attention_bwd_dq's qdo_lds: 1 when Q's and dO's A fragments over head_dim exceed kQdoMaxVgprs.
std::int64_t dq_qdo_lds(const arch::MmaOp& op, std::int64_t head_dim, std::string_view dtype);
// (block_m, block_n, waves) of attention_bwd_dq: one atom of rows per wave (with mma.sync 4 warps of two).
std::tuple<std::int64_t, std::int64_t, std::int64_t> dq_tile(const arch::ArchTarget& target, std::int64_t atom_n);
// The problem plan_attention_bwd takes (sizes and every tensor's strides; gradients like their tensors).
families::ProblemSizes plan_sizes(const dispatch::AttentionFields& problem);
// Whether a batched tensor's batch stride addresses anything: several batches with rows.
bool spans_batches(const dispatch::AttentionFields& problem, std::string_view tensor);
// The tensors (of q, k, v, o) whose batch stride is 0 where it addresses rows (batches alias).
std::vector<std::string> zero_batch_strides(const dispatch::AttentionFields& problem);
// "atomic" iff h_q != h_kv (a group's query heads add into one dK, dV), else "direct".
std::string dkv_mode(const dispatch::AttentionFields& problem);
std::vector<Candidate> candidates(const dispatch::AttentionFields& problem, const arch::ArchTarget& target);

}  // namespace rocke::library::kernels::attention::attention_bwd_main
