// rocKE library: builder of the attention_bwd_convert family.
// Python twin: rocke_library/kernels/attention/attention_bwd_convert/builder.py (function for
// function; the test-only faults of the Python builder are not twinned)
//
// Thread g owns the vec elements g % (head_dim / vec) * vec .. of row g / (head_dim / vec) of each
// output it converts: it loads its f32 vector from the workspace (dkv_mode=split: the group's
// query-head slices summed in order), rounds it to the input dtype and stores it through the output
// strides; rows past the end drop (bounds-checked buffer accesses).
#pragma once

#include <string_view>

#include "rocke/arch/target.hpp"
#include "rocke/ir/builder.hpp"
#include "rocke_library/kernels/attention/attention_bwd_convert/spec.hpp"

namespace rocke::library::kernels::attention::attention_bwd_convert {

// The arch-dependent rules (SpecError).
void check_arch(const AttentionBwdConvertSpec& spec, const arch::ArchTarget& target);

// The verified kernel for spec on arch; SpecError when the arch refuses the spec.
ir::KernelDef build(const AttentionBwdConvertSpec& spec, std::string_view arch);

// The family registry's entry: AttentionBwdConvertSpec::from_kv(kv), then build(spec, arch).
ir::KernelDef build_kv(std::string_view kv, std::string_view arch);

}  // namespace rocke::library::kernels::attention::attention_bwd_convert
