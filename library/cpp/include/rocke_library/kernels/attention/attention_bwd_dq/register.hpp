// rocKE library: the attention_bwd_dq family's entry in the C++ family registry.
// Python twin: rocke_library/kernels/attention/attention_bwd_dq/family.py (FAMILY)
#pragma once

#include "rocke/families/registry.hpp"

namespace rocke::library::kernels::attention::attention_bwd_dq {

// The family's resource-refusal table, generated from attention_bwd_dq.refusals.json
// (attention_bwd_dq_refusals_json.cpp beside this family's sources, by library/tools/gen_cpp_tables.py).
extern const families::RefusalTable kRefusals;

// Add "attention_bwd_dq" (owner "rocke-library"): its spec fields, build_kv as the builder,
// AttentionBwdDqSpec::from_kv(kv).to_kv() as the normalizer, kRefusals as its refusal table.
void register_family(families::FamilyRegistry& registry);

}  // namespace rocke::library::kernels::attention::attention_bwd_dq
