// rocKE library: the conv_igemm_wgrad family's entry in the C++ family registry.
// Python twin: rocke_library/kernels/conv/conv_igemm_wgrad/family.py (FAMILY)
#pragma once

#include "rocke/families/registry.hpp"

namespace rocke::library::kernels::conv::conv_igemm_wgrad {

// The family's resource-refusal table, generated from conv_igemm_wgrad.refusals.json
// (conv_igemm_wgrad_refusals_json.cpp beside this family's sources, by library/tools/gen_cpp_tables.py).
extern const families::RefusalTable kRefusals;

// Add "conv_igemm_wgrad" (owner "rocke-library"): its spec fields, build_kv as the builder, and
// ConvIgemmWgradSpec::from_kv(kv).to_kv() as the normalizer, kRefusals as its refusal table.
void register_family(families::FamilyRegistry& registry);

}  // namespace rocke::library::kernels::conv::conv_igemm_wgrad
