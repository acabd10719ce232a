// rocKE C++ engine: the gemm family's entry in the C++ family registry.
// Python twin: rocke/families/gemm/family.py (FAMILY)
#pragma once

#include "rocke/families/registry.hpp"

namespace rocke::families::gemm {

// The family's resource-refusal table, generated from gemm.refusals.json
// (gemm_refusals_json.cpp beside this family's sources).
extern const RefusalTable kRefusals;

// Add "gemm" (owner "rocke"): its spec fields, build_kv as the builder, and
// GemmSpec::from_kv(kv).to_kv() as the normalizer, kRefusals as its refusal table.
void register_family(FamilyRegistry& registry);

}  // namespace rocke::families::gemm
