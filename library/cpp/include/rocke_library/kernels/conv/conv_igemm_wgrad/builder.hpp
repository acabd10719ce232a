// rocKE library: the conv_igemm_wgrad family's builder twin -- the main kernel, a user of the
// tile-GEMM main loop (rocke/helpers/tile_gemm.hpp) with a dense dy operand and a filter-tap x
// operand, and the convert kernel (convert=1).
// Python twin: rocke_library/kernels/conv/conv_igemm_wgrad/builder.py (function for function, same op
// order and hints; the test-only faults of the Python builder are not twinned)
//
// Main kernel: one GEMM per group: M = K / G output channels, N = Y * X * C / G (column nd = tap *
// C/G + ci), Kdim = N * Ho * Wo output pixels. Workgroup (x, y, z) owns columns x * bn .. and output
// channels y * bm .. of group z / split_k over the z % split_k-th share of Kdim (ceil(ceil(Kdim / bk)
// / split_k) K tiles). A is dy as a dense matrix; B gathers x through TapInputOperand (taps in the
// padding read 0). The epilogue stores dw (split_k = 1) or adds the f32 sums into the workspace with
// atomics (split_k > 1). Convert kernel: thread t of workgroup z rounds elements (z * threads + t) *
// vec .. + vec - 1 of the f32 workspace to dtype.
#pragma once

#include <string_view>

#include "rocke/ir/core.hpp"
#include "rocke_library/kernels/conv/conv_igemm_wgrad/spec.hpp"

namespace rocke::library::kernels::conv::conv_igemm_wgrad {

inline constexpr std::int64_t kConvertLanes = 4;  // f32 elements per convert load (16 bytes)

// The verified kernel for spec on arch (the convert kernel when spec.convert); SpecError when the
// arch refuses the spec.
ir::KernelDef build(const ConvIgemmWgradSpec& spec, std::string_view arch);

// The family registry's entry: ConvIgemmWgradSpec::from_kv(kv), then build(spec, arch).
ir::KernelDef build_kv(std::string_view kv, std::string_view arch);

}  // namespace rocke::library::kernels::conv::conv_igemm_wgrad
