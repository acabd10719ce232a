// rocKE library: the attention_bwd_convert spec -- the backward's f32 workspaces (dq_acc, dk_acc,
// dv_acc) to dQ, dK, dV in the input dtype through arbitrary output strides, summing a GQA group's
// per-query-head slices when dkv_mode=split.
// Python twin: rocke_library/kernels/attention/attention_bwd_convert/spec.py
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/families/spec.hpp"

namespace rocke::library::kernels::attention::attention_bwd_convert {

inline constexpr std::array<std::string_view, 2> kInputDtypes = {"f16", "bf16"};
inline constexpr std::array<std::int64_t, 3> kHeadDims = {32, 64, 128};
inline constexpr std::array<std::string_view, 2> kSeqModes = {"batched", "varlen"};
// Python: rocke_library/kernels/attention/backward_plan.py (DQ_MODES, DKV_MODES)
inline constexpr std::array<std::string_view, 2> kDqModes = {"atomic", "split"};
inline constexpr std::array<std::string_view, 3> kDkvModes = {"direct", "atomic", "split"};

// block: threads per workgroup; dtype: storage of dQ, dK, dV; head_dim: D; vec: elements per
// access. dq_mode=atomic converts dq_acc to dq; dkv_mode=atomic converts dk_acc, dv_acc
// ([.., H_kv, D]), dkv_mode=split sums the group's query-head slices ([.., H_q, D]) first,
// dkv_mode=direct leaves dk, dv. seq_mode: batched or varlen.
struct AttentionBwdConvertSpec : families::Spec<AttentionBwdConvertSpec> {
  static constexpr std::string_view kFamily = "attention_bwd_convert";

  std::int64_t block = 0;
  std::string dkv_mode;
  std::string dq_mode;
  std::string dtype;
  std::int64_t head_dim = 0;
  std::string seq_mode;
  std::int64_t vec = 0;

  static const std::vector<families::Field<AttentionBwdConvertSpec>>& fields();
  void check() const;
  // The outputs this kernel writes, in argument order.
  std::vector<std::string> tensors() const;
};

}  // namespace rocke::library::kernels::attention::attention_bwd_convert
