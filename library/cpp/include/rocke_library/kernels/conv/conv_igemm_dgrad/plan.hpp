// rocKE library: host-time plan of a conv_igemm_dgrad kernel on one arch -- the tile-GEMM main loop's
// plan (rocke/helpers/tile_gemm.hpp) for the spec's tile, with the spec's refusals.
// Python twin: rocke_library/kernels/conv/conv_igemm_dgrad/plan.py
//
// A (input pixels x Kdim, Kdim = tap * K/G + k) is k-contiguous (NHWK puts an output pixel's channels
// together; a copy vector of at most vec channels stays inside one tap); B (Kdim x C/G) is
// outer-contiguous (KYXC puts a filter row's input channels together; vectors of at most vec).
#pragma once

#include "rocke/arch/target.hpp"
#include "rocke/helpers/tile_gemm.hpp"
#include "rocke_library/kernels/conv/conv_igemm_dgrad/spec.hpp"

namespace rocke::library::kernels::conv::conv_igemm_dgrad {

// The main loop's tile: A k-contiguous, B outer-contiguous, copy vectors at most vec channels.
helpers::TileShape tile_shape(const ConvIgemmDgradSpec& spec);

// The plan, or SpecError for a spec the arch refuses.
helpers::TileGemmPlan plan_dgrad(const ConvIgemmDgradSpec& spec, const arch::ArchTarget& target);

}  // namespace rocke::library::kernels::conv::conv_igemm_dgrad
