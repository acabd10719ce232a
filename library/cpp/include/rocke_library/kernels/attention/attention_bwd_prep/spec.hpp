// rocKE library: the attention_bwd_prep spec -- per query row D = rowsum(dO * O) and
// LSE2 = LSE * log2(e) (dead rows: LSE2 = +inf, D = 0), and the zero-fill of the backward's
// accumulation workspace.
// Python twin: rocke_library/kernels/attention/attention_bwd_prep/spec.py
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/families/spec.hpp"

namespace rocke::library::kernels::attention::attention_bwd_prep {

inline constexpr std::array<std::string_view, 2> kInputDtypes = {"f16", "bf16"};
inline constexpr std::array<std::int64_t, 3> kHeadDims = {32, 64, 128};
inline constexpr std::array<std::string_view, 2> kSeqModes = {"batched", "varlen"};

// block: threads per workgroup; dtype: storage of O and dO; head_dim: D (specialised); vec:
// elements of O and dO per access. head_dim / vec lanes share one query row (a power of two, at
// most one wave: joined by shuffle-xor), so a workgroup covers block * vec / head_dim rows.
// seq_mode: batched (strided [B, S, H, D]) or varlen (packed [T, H, D]).
struct AttentionBwdPrepSpec : families::Spec<AttentionBwdPrepSpec> {
  static constexpr std::string_view kFamily = "attention_bwd_prep";

  std::int64_t block = 0;
  std::string dtype;
  std::int64_t head_dim = 0;
  std::string seq_mode;
  std::int64_t vec = 0;

  static const std::vector<families::Field<AttentionBwdPrepSpec>>& fields();
  void check() const;
  // Lanes sharing one query row.
  std::int64_t row_lanes() const { return head_dim / vec; }
  std::int64_t rows_per_block() const { return block / row_lanes(); }
};

}  // namespace rocke::library::kernels::attention::attention_bwd_prep
