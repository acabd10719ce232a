// rocKE library: the img2col family's entry in the C++ family registry.
// Python twin: rocke_library/kernels/conv/img2col/family.py (FAMILY)
#pragma once

#include "rocke/families/registry.hpp"

namespace rocke::library::kernels::conv::img2col {

// The family's resource-refusal table, generated from img2col.refusals.json
// (img2col_refusals_json.cpp beside this family's sources, by library/tools/gen_cpp_tables.py).
extern const families::RefusalTable kRefusals;

// Add "img2col" (owner "rocke-library"): its spec fields, build_kv as the builder, and
// Img2colSpec::from_kv(kv).to_kv() as the normalizer, kRefusals as its refusal table.
void register_family(families::FamilyRegistry& registry);

}  // namespace rocke::library::kernels::conv::img2col
