// rocKE library: the conv_igemm_dgrad family's builder twin -- a user of the tile-GEMM main loop
// (rocke/helpers/tile_gemm.hpp) with two filter-tap operand generators.
// Python twin: rocke_library/kernels/conv/conv_igemm_dgrad/builder.py (function for function, same op
// order and hints; the test-only faults of the Python builder are not twinned)
//
// One GEMM per group z: M = N * H * W input pixels, N = C / G input channels, Kdim = Y * X * K / G
// with reduction index kk = tap * (K / G) + ko, tap = ky * X + kx. Workgroup (x, y, z) owns input
// channels x * bn .. of group z for input pixels y * bm ... A gathers dy through GradTapOperand: tap
// (ky, kx) reaches output pixel ((h + pad_h - ky * dil_h) / stride_h, (w + pad_w - kx * dil_w) /
// stride_w) only when both divisions are exact and land inside dy; every other (pixel, tap) reads 0,
// so a pixel no tap reaches stores exactly 0. B reads w[g * K/G + ko][tap][ci] through
// FilterOperand. The epilogue rounds to dtype and stores each element inside M x N.
#pragma once

#include <string_view>

#include "rocke/ir/core.hpp"
#include "rocke_library/kernels/conv/conv_igemm_dgrad/spec.hpp"

namespace rocke::library::kernels::conv::conv_igemm_dgrad {

// The verified kernel for spec on arch; SpecError when the arch refuses the spec.
ir::KernelDef build(const ConvIgemmDgradSpec& spec, std::string_view arch);

// The family registry's entry: ConvIgemmDgradSpec::from_kv(kv), then build(spec, arch).
ir::KernelDef build_kv(std::string_view kv, std::string_view arch);

}  // namespace rocke::library::kernels::conv::conv_igemm_dgrad
