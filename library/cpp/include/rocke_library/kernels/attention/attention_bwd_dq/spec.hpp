// rocKE library: the attention_bwd_dq spec -- flash-attention backward per query block, dQ = scale *
// dS K written directly (no atomics).
// Python twin: rocke_library/kernels/attention/attention_bwd_dq/spec.py
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/arch/mma.hpp"
#include "rocke/families/spec.hpp"

namespace rocke::library::kernels::attention::attention_bwd_dq {

inline constexpr std::array<std::string_view, 2> kInputDtypes = {"f16", "bf16"};
inline constexpr std::array<std::int64_t, 3> kHeadDims = {32, 64, 128};
inline constexpr std::array<std::string_view, 3> kMasks = {"none", "causal_tl", "causal_br"};
inline constexpr std::array<std::string_view, 2> kSeqModes = {"batched", "varlen"};
inline constexpr std::int64_t kMaxWaves = 32;
inline constexpr std::int64_t kMaxBlockM = 512;
inline constexpr std::int64_t kMaxBlockN = 256;
inline constexpr std::int64_t kMaxLdsPad = 64;

// One workgroup owns block_m query rows of one (batch, query head) and loops over the key blocks
// of block_n they can see; waves split the rows; op_id is the MMA atom of every product (S^T =
// K Q^T, dP^T = V dO^T, dQ^T = K^T dS^T); lds_pad pads every LDS line; qdo_lds stages the block's
// Q and dO rows once in LDS and reads their fragments from there at every key block, instead of
// holding them in registers through the key loop (what head_dim 128 needs where the registers run out).
struct AttentionBwdDqSpec : families::Spec<AttentionBwdDqSpec> {
  static constexpr std::string_view kFamily = "attention_bwd_dq";

  std::int64_t block_m = 0;
  std::int64_t block_n = 0;
  std::string dtype;
  std::int64_t head_dim = 0;
  std::int64_t lds_pad = 0;
  std::string mask;
  std::string op_id;
  bool qdo_lds = false;
  std::string seq_mode;
  std::int64_t waves = 0;

  static const std::vector<families::Field<AttentionBwdDqSpec>>& fields();
  void check() const;
  // The MMA catalog op of every product.
  const arch::MmaOp& atom() const { return arch::mma_op(op_id); }
  // Threads per workgroup: waves of the atom's wave size.
  std::int64_t threads() const { return waves * atom().wave_size; }
  // Query rows per wave.
  std::int64_t wave_rows() const { return block_m / waves; }
};

}  // namespace rocke::library::kernels::attention::attention_bwd_dq
