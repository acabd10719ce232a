// rocKE C++ engine: the nvptx module's kernel attributes and metadata.
// Python twin: rocke/lower/nvptx/module.py
//
// The workgroup size bound is !nvvm.annotations maxntidx: LLVM 20's NVPTX backend ignores the
// "nvvm.maxntid" function attribute that LLVM 22 reads, and both read the annotation.
#pragma once

#include <string>
#include <vector>

#include "rocke/arch/target.hpp"
#include "rocke/ir/core.hpp"

namespace rocke::lower::nvptx {

// String attributes of the kernel, sorted by name.
std::vector<std::string> kernel_attributes(const ir::KernelDef& kernel, const arch::ArchTarget& arch);
// The named metadata closing the module.
std::vector<std::string> module_metadata(const ir::KernelDef& kernel, const arch::ArchTarget& arch);

}  // namespace rocke::lower::nvptx
