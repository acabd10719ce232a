// rocKE library: builder of the attention_bwd_dq family (flash-attention backward, split dQ).
// Python twin: rocke_library/kernels/attention/attention_bwd_dq/builder.py (function for function;
// the test-only faults of the Python builder are not twinned: configs, goldens and C++ never use them)
//
// Workgroup (x, y, z) owns query rows x * block_m .. of query head y of sequence z; wave w owns rows
// w * block_m / waves ... Q^T and dO^T fragments and the rows' LSE2 and D are read once; per key
// block (device loop bound, fully masked blocks skipped): K and V copied into LDS, S^T = K Q^T and
// dP^T = V dO^T, P and dS recomputed, dQ^T += K^T dS^T (dS^T through registers or LDS, as
// rocke::helpers::plan_chain decides); the epilogue stores dQ * scale in the input dtype.
#pragma once

#include <array>
#include <string_view>

#include "rocke/ir/builder.hpp"
#include "rocke_library/kernels/attention/attention_bwd_dq/spec.hpp"

namespace rocke::library::kernels::attention::attention_bwd_dq {

inline constexpr std::array<std::string_view, 5> kTensors = {"q", "k", "v", "do", "dq"};

// The verified kernel for spec on arch; SpecError when the arch refuses the spec.
ir::KernelDef build(const AttentionBwdDqSpec& spec, std::string_view arch);

// The family registry's entry: AttentionBwdDqSpec::from_kv(kv), then build(spec, arch).
ir::KernelDef build_kv(std::string_view kv, std::string_view arch);

}  // namespace rocke::library::kernels::attention::attention_bwd_dq
