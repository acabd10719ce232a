// rocKE library: the conv_direct_fwd family's entry in the C++ family registry.
// Python twin: rocke_library/kernels/conv/conv_direct_fwd/family.py (FAMILY)
#pragma once

#include "rocke/families/registry.hpp"

namespace rocke::library::kernels::conv::conv_direct_fwd {

// Add "conv_direct_fwd" (owner "rocke-library"): its spec fields, build_kv as the builder, and
// ConvDirectFwdSpec::from_kv(kv).to_kv() as the normalizer.
void register_family(families::FamilyRegistry& registry);

}  // namespace rocke::library::kernels::conv::conv_direct_fwd
