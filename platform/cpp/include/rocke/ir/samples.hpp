// rocKE C++ engine: the sample kernels, built with the C++ Builder.
// Python twin: rocke/ir/samples.py (each builder here reads side by side with its twin there;
// the parity tests require both to print byte-identical text).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rocke/ir/core.hpp"

namespace rocke::ir::samples {

inline constexpr const char* kMfmaOpId = "mfma_f32_16x16x16_f16";
inline constexpr const char* kWmmaOpId = "wmma_f32_16x16x16_f16_gfx11";

KernelDef axpy();
KernelDef vec_ops();
KernelDef int_ops();
KernelDef float_math();
KernelDef xlane_ops();
KernelDef block_reduce();
KernelDef buffer_copy();
KernelDef nested_control();
KernelDef gemm_mfma();
KernelDef gemm_wmma();

// Names of every sample, in the Python SAMPLE_NAMES order.
const std::vector<std::string>& sample_names();
// Fresh copies of every sample kernel, in sample_names() order.
std::vector<std::pair<std::string, KernelDef>> sample_kernels();

}  // namespace rocke::ir::samples
