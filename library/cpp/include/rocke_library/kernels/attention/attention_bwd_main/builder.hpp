// rocKE library: builder of the attention_bwd_main family (flash-attention backward per key block).
// Python twin: rocke_library/kernels/attention/attention_bwd_main/builder.py (function for function;
// the test-only faults of the Python builder are not twinned: configs, goldens and C++ never use them)
//
// Workgroup (x, y, z) owns keys x * block_n .. of the kv head of query head y of sequence z; wave w
// owns keys w * block_n / waves ... K and V go to LDS once; per query block that can see the keys
// (device loop bounds): Q and dO copied into LDS, S = Q K^T and dP = dO V^T, P and dS recomputed
// from LSE2 and D, dV^T += dO^T P and dK^T += Q^T dS (P / dS through registers or LDS, as
// rocke::helpers::plan_chain decides), and with dq_mode=atomic dQ^T = K^T dS^T * scale added into
// the f32 dQ workspace. The epilogue stores (direct) or atomically adds (atomic) dV and dK * scale.
#pragma once

#include <array>
#include <string_view>

#include "rocke/ir/builder.hpp"
#include "rocke_library/kernels/attention/attention_bwd_main/spec.hpp"

namespace rocke::library::kernels::attention::attention_bwd_main {

inline constexpr std::array<std::string_view, 4> kInputs = {"q", "k", "v", "do"};

// The verified kernel for spec on arch; SpecError when the arch refuses the spec.
ir::KernelDef build(const AttentionBwdMainSpec& spec, std::string_view arch);

// The family registry's entry: AttentionBwdMainSpec::from_kv(kv), then build(spec, arch).
ir::KernelDef build_kv(std::string_view kv, std::string_view arch);

}  // namespace rocke::library::kernels::attention::attention_bwd_main
