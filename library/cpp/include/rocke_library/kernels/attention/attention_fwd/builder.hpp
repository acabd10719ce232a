// rocKE library: builder of the attention_fwd family (flash-attention forward).
// Python twin: rocke_library/kernels/attention/attention_fwd/builder.py (function for function; the
// test-only faults of the Python builder are not twinned: configs, goldens and C++ never use them)
//
// Workgroup (x, y, z) owns query rows x * block_m .. of query head y of sequence z; wave w owns
// rows w * block_m / waves ... Q^T fragments are read once from global memory into registers; per
// key block (device loop bound, fully masked blocks skipped): K and V^T copied into LDS, S^T = K Q^T,
// online softmax in the exp2 domain, P rounded to the input dtype and fed to O^T += V^T P^T through
// registers or LDS (rocke::helpers::plan_chain decides); the epilogue stores O / l and the LSE.
// With double_buffer K and V^T have two LDS stages: block j + 1 is loaded from global memory while
// block j is computed and stored into the other stage after it, one barrier per block.
#pragma once

#include <array>
#include <string_view>

#include "rocke/ir/builder.hpp"
#include "rocke_library/kernels/attention/attention_fwd/spec.hpp"

namespace rocke::library::kernels::attention::attention_fwd {

inline constexpr std::array<std::string_view, 4> kTensors = {"q", "k", "v", "o"};

// The verified kernel for spec on arch; SpecError when the arch refuses the spec.
ir::KernelDef build(const AttentionFwdSpec& spec, std::string_view arch);

// The family registry's entry: AttentionFwdSpec::from_kv(kv), then build(spec, arch).
ir::KernelDef build_kv(std::string_view kv, std::string_view arch);

}  // namespace rocke::library::kernels::attention::attention_fwd
