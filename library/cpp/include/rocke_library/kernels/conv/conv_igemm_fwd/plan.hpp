// rocKE library: host-time plan of a conv_igemm_fwd kernel on one arch -- the tile-GEMM main loop's
// plan (rocke/helpers/tile_gemm.hpp) for the spec's tile, with the spec's refusals.
// Python twin: rocke_library/kernels/conv/conv_igemm_fwd/plan.py
//
// Both operands are k-contiguous (NHWC puts a pixel's channels together, KYXC a filter's taps and
// channels); A's copy vectors run along the channels of one tap, so they hold at most vec elements.
#pragma once

#include "rocke/arch/target.hpp"
#include "rocke/helpers/tile_gemm.hpp"
#include "rocke_library/kernels/conv/conv_igemm_fwd/spec.hpp"

namespace rocke::library::kernels::conv::conv_igemm_fwd {

// The main loop's tile: A and B k-contiguous, A's copy vectors at most vec channels.
helpers::TileShape tile_shape(const ConvIgemmFwdSpec& spec);

// The plan, or SpecError for a spec the arch refuses.
helpers::TileGemmPlan plan_conv(const ConvIgemmFwdSpec& spec, const arch::ArchTarget& target);

}  // namespace rocke::library::kernels::conv::conv_igemm_fwd
