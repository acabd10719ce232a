// rocKE library: host-time plan of a conv_igemm_wgrad main kernel on one arch -- the tile-GEMM main loop's
// plan (rocke/helpers/tile_gemm.hpp) for the spec's tile, with the spec's refusals.
// Python twin: rocke_library/kernels/conv/conv_igemm_wgrad/plan.py
//
// Both operands are outer-contiguous: A (K/G x Kdim, Kdim = output pixels) as NHWK puts an output
// pixel's channels together, B (Kdim x Y*X*C/G, column = tap * C/G + c) as NHWC puts an input pixel's
// channels together; copy vectors of at most vec channels (never straddling two taps).
#pragma once

#include "rocke/arch/target.hpp"
#include "rocke/helpers/tile_gemm.hpp"
#include "rocke_library/kernels/conv/conv_igemm_wgrad/spec.hpp"

namespace rocke::library::kernels::conv::conv_igemm_wgrad {

// The main loop's tile: A and B outer-contiguous, copy vectors at most vec channels.
helpers::TileShape tile_shape(const ConvIgemmWgradSpec& spec);

// The plan, or SpecError for a spec the arch refuses.
helpers::TileGemmPlan plan_wgrad(const ConvIgemmWgradSpec& spec, const arch::ArchTarget& target);

}  // namespace rocke::library::kernels::conv::conv_igemm_wgrad
