// rocKE C++ engine: KernelDef -> AMDGPU LLVM IR text, per flavor.
// Python twin: rocke/lower/__init__.py
//
//     rocke::lower::lower(kernel, arch, flavor) -> std::string    the .ll text (platform/docs/lowering.md)
//     rocke::LowerError                                            a refusal, raised before any LLVM sees text
#pragma once

#include "rocke/lower/errors.hpp"
#include "rocke/lower/module.hpp"
