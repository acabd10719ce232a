// rocKE library: the conv_igemm_fwd family's builder twin -- a user of the tile-GEMM main loop
// (rocke/helpers/tile_gemm.hpp) with a filter-tap operand generator.
// Python twin: rocke_library/kernels/conv/conv_igemm_fwd/builder.py (function for function, same op
// order and hints; the test-only faults of the Python builder are not twinned)
//
// One GEMM per group z: M = N * Ho * Wo output pixels, N = K / G output channels, Kdim = Y * X * C / G
// with reduction index kk = tap * (C / G) + ci, tap = ky * X + kx. Workgroup (x, y, z) owns output
// channels x * bn .. of group z for pixels y * bm ... A reads x through TapOperand (padding, pixels
// past M and kk past Kdim read 0), or as a dense matrix on the 1x1 / stride-1 / unpadded fast path;
// B is the dense matrix w[g * K / G + n][kk]. The epilogue adds the bias, applies relu, rounds to
// dtype and stores each element inside M x N.
#pragma once

#include <string_view>

#include "rocke/ir/core.hpp"
#include "rocke_library/kernels/conv/conv_igemm_fwd/spec.hpp"

namespace rocke::library::kernels::conv::conv_igemm_fwd {

// The verified kernel for spec on arch; SpecError when the arch refuses the spec.
ir::KernelDef build(const ConvIgemmFwdSpec& spec, std::string_view arch);

// The family registry's entry: ConvIgemmFwdSpec::from_kv(kv), then build(spec, arch).
ir::KernelDef build_kv(std::string_view kv, std::string_view arch);

}  // namespace rocke::library::kernels::conv::conv_igemm_fwd
