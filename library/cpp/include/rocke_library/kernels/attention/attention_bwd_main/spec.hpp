// rocKE library: the attention_bwd_main spec -- flash-attention backward per key block: dK, dV of
// block_n keys (and, with dq_mode=atomic, their share of dQ by f32 atomics).
// Python twin: rocke_library/kernels/attention/attention_bwd_main/spec.py
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/arch/mma.hpp"
#include "rocke/families/spec.hpp"

namespace rocke::library::kernels::attention::attention_bwd_main {

inline constexpr std::array<std::string_view, 2> kInputDtypes = {"f16", "bf16"};
inline constexpr std::array<std::int64_t, 3> kHeadDims = {32, 64, 128};
inline constexpr std::array<std::int64_t, 4> kDChunks = {16, 32, 64, 128};
inline constexpr std::array<std::string_view, 3> kMasks = {"none", "causal_tl", "causal_br"};
inline constexpr std::array<std::string_view, 2> kSeqModes = {"batched", "varlen"};
inline constexpr std::array<std::string_view, 2> kDqModes = {"atomic", "split"};
inline constexpr std::array<std::string_view, 3> kDkvModes = {"direct", "atomic", "split"};
inline constexpr std::int64_t kMaxWaves = 32;
inline constexpr std::int64_t kMaxBlockM = 256;
inline constexpr std::int64_t kMaxBlockN = 256;
inline constexpr std::int64_t kMaxLdsPad = 64;

// One workgroup owns block_n keys of one (batch, query head) and loops over the query blocks of
// block_m rows that can see them; waves split the keys; op_id is the MMA atom of every product;
// lds_pad pads every LDS line. dq_mode: atomic (f32 atomics into the dQ workspace) or split
// (attention_bwd_dq). dkv_mode: direct (input dtype, h_q == h_kv), atomic (f32 atomics into the
// kv heads' workspaces) or split (f32 plain stores into one workspace slice per query head; convert
// sums the group). d_chunk: the head_dim columns of dK, dV (and atomic dQ) one workgroup owns;
// head_dim / d_chunk workgroups share a key block (S and dP still reduce over all of head_dim).
struct AttentionBwdMainSpec : families::Spec<AttentionBwdMainSpec> {
  static constexpr std::string_view kFamily = "attention_bwd_main";

  std::int64_t block_m = 0;
  std::int64_t block_n = 0;
  std::int64_t d_chunk = 0;
  std::string dkv_mode;
  std::string dq_mode;
  std::string dtype;
  std::int64_t head_dim = 0;
  std::int64_t lds_pad = 0;
  std::string mask;
  std::string op_id;
  std::string seq_mode;
  std::int64_t waves = 0;

  static const std::vector<families::Field<AttentionBwdMainSpec>>& fields();
  void check() const;
  // The MMA catalog op of every product.
  const arch::MmaOp& atom() const { return arch::mma_op(op_id); }
  // Threads per workgroup: waves of the atom's wave size.
  std::int64_t threads() const { return waves * atom().wave_size; }
  // Workgroups per key block: head_dim / d_chunk.
  std::int64_t chunks() const { return head_dim / d_chunk; }
  // Keys per wave.
  std::int64_t wave_keys() const { return block_n / waves; }
};

}  // namespace rocke::library::kernels::attention::attention_bwd_main
