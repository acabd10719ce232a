// rocKE C++ engine: builder of the elementwise family.
// Python twin: rocke/families/elementwise/builder.py (function for function; the test-only
// faults of the Python builder are not twinned: configs, goldens and C++ never use them)
//
// Thread t of workgroup g handles elements first = (g * block + t) * vec .. first + vec - 1. Loads
// and stores go through buffer resources sized n elements: a whole vector when all of it is
// inside, else one bounds-checked element at a time (out-of-range elements read 0, stores are
// dropped).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "rocke/arch/target.hpp"
#include "rocke/families/elementwise/spec.hpp"
#include "rocke/ir/builder.hpp"

namespace rocke::families::elementwise {

// The arch-dependent rules (SpecError).
void check_arch(const ElementwiseSpec& spec, const arch::ArchTarget& target);

// op over f32 scalars or vectors.
ir::Value* apply_op(ir::Builder& b, std::string_view op, const ir::Values& args, std::int64_t lanes);

// The verified kernel for spec on arch; SpecError when the arch refuses the spec.
ir::KernelDef build(const ElementwiseSpec& spec, std::string_view arch);

// The family registry's entry: ElementwiseSpec::from_kv(kv), then build(spec, arch).
ir::KernelDef build_kv(std::string_view kv, std::string_view arch);

}  // namespace rocke::families::elementwise
