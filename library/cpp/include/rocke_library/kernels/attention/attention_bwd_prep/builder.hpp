// rocKE library: builder of the attention_bwd_prep family.
// Python twin: rocke_library/kernels/attention/attention_bwd_prep/builder.py (function for function;
// the test-only faults of the Python builder are not twinned: configs, goldens and C++ never use them)
//
// Rows are the LSE's (batched [B, H_q, S_q], varlen [H_q, total_q]); head_dim / vec lanes share a
// row: D = rowsum(dO * O) in f32 joined by shuffle-xor, LSE2 = LSE * log2(e); a dead row (LSE =
// -inf or NaN) gets LSE2 = +inf, D = 0. Then every thread zero-fills its share of zero_ws.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "rocke/arch/target.hpp"
#include "rocke/families/spec.hpp"
#include "rocke/helpers/dtypes.hpp"
#include "rocke/ir/builder.hpp"
#include "rocke_library/kernels/attention/attention_bwd_prep/spec.hpp"

namespace rocke::library::kernels::attention::attention_bwd_prep {

inline constexpr std::array<std::string_view, 2> kTensors = {"o", "do"};
inline const std::int64_t kF32Bytes = helpers::elem_bytes("f32");
// f32 elements per zero-fill store (the widest access)
inline const std::int64_t kZeroVec = families::kMaxAccessBytes / kF32Bytes;

// The arch-dependent rules (SpecError).
void check_arch(const AttentionBwdPrepSpec& spec, const arch::ArchTarget& target);

// The verified kernel for spec on arch; SpecError when the arch refuses the spec.
ir::KernelDef build(const AttentionBwdPrepSpec& spec, std::string_view arch);

// The family registry's entry: AttentionBwdPrepSpec::from_kv(kv), then build(spec, arch).
ir::KernelDef build_kv(std::string_view kv, std::string_view arch);

}  // namespace rocke::library::kernels::attention::attention_bwd_prep
