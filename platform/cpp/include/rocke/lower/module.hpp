// rocKE C++ engine: lower(kernel, arch, flavor), a verified KernelDef as the text of one AMDGPU
// LLVM IR module.
// Python twin: rocke/lower/module.py
//
// The module is built as plain text, in this order (sections separated by one blank line):
//
//     target datalayout = "<the flavor's datalayout>"
//     target triple = "amdgcn-amd-amdhsa"
//
//     @rocke.lds = internal addrspace(3) global [N x i8] poison, align A     (only with LDS)
//
//     define amdgpu_kernel void @NAME(PARAMS) #0 {
//     entry:
//       ...
//       ret void
//     }
//
//     declare ...                         (only the intrinsics used, in intrinsic-table order)
//
//     attributes #0 = { ... }             (sorted by attribute name)
//
// See platform/docs/lowering.md for the naming rules and every op's lowering.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rocke/arch/flavors.hpp"
#include "rocke/arch/target.hpp"
#include "rocke/ir/core.hpp"
#include "rocke/lower/emitter.hpp"

namespace rocke::lower {

// The .ll text of kernel for arch under flavor. Checks, in Python's order: ValueError for an
// unknown flavor (listing the known ones), arch::UnknownArchError for an unknown arch,
// VerifyError for a kernel the verifier refuses on that arch, LowerError for what the lowerer
// refuses (an intrinsic outside the arch domain, too much LDS, an unsupported buffer access
// size, a shuffle mask at or above the wave size).
std::string lower(const ir::KernelDef& kernel, std::string_view arch, std::string_view flavor);
std::string lower(const ir::KernelDef& kernel, const arch::ArchTarget& arch, std::string_view flavor);
// lower() of a kernel the caller has already verified for arch (ir::verify(kernel, &arch)): the
// same text, without verifying again (gates::emit_family lowers one kernel for several flavors).
std::string lower_verified(const ir::KernelDef& kernel, const arch::ArchTarget& arch, std::string_view flavor);

// TYPE [noalias] NOCAPTURE [readonly] [writeonly] [align N] %name (attributes on pointers only).
std::string param_text(const ir::Param& param, const arch::Flavor& flavor, FunctionEmitter& em);
// param_text appended to out.
void append_param_text(std::string& out, const ir::Param& param, const arch::Flavor& flavor, FunctionEmitter& em);
// String attributes of the kernel, sorted by name.
std::vector<std::string> kernel_attributes(const ir::KernelDef& kernel, const arch::ArchTarget& arch);

}  // namespace rocke::lower
