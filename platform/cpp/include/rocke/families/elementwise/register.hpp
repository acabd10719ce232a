// rocKE C++ engine: the elementwise family's entry in the C++ family registry.
// Python twin: rocke/families/elementwise/family.py (FAMILY)
#pragma once

#include "rocke/families/registry.hpp"

namespace rocke::families::elementwise {

// The family's resource-refusal table, generated from elementwise.refusals.json
// (elementwise_refusals_json.cpp beside this family's sources).
extern const RefusalTable kRefusals;

// Add "elementwise" (owner "rocke"): its spec fields, build_kv as the builder, and
// ElementwiseSpec::from_kv(kv).to_kv() as the normalizer, kRefusals as its refusal table.
void register_family(FamilyRegistry& registry);

}  // namespace rocke::families::elementwise
