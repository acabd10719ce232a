// rocKE library: the attention_fwd family's entry in the C++ family registry.
// Python twin: rocke_library/kernels/attention/attention_fwd/family.py (FAMILY)
#pragma once

#include "rocke/families/registry.hpp"

namespace rocke::library::kernels::attention::attention_fwd {

// Add "attention_fwd" (owner "rocke-library"): its spec fields, build_kv as the builder, and
// AttentionFwdSpec::from_kv(kv).to_kv() as the normalizer.
void register_family(families::FamilyRegistry& registry);

}  // namespace rocke::library::kernels::attention::attention_fwd
