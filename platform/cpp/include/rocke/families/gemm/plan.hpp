// rocKE C++ engine: host-time plan of a gemm kernel on one arch: the tile-GEMM main loop's plan
// (rocke/helpers/tile_gemm.hpp) for the spec's tile, with the spec's refusals.
// Python twin: rocke/families/gemm/plan.py
//
// LDS holds A as [bm][bk + lds_pad] and B as [bn][bk + lds_pad] (k contiguous for both, so MMA
// fragments are vector loads), in 1 or 2 stages. Global -> LDS copies read vectors along each
// operand's contiguous dimension: k for row-major A and column-major B (vector LDS stores), m or n
// otherwise (the copy transposes: one LDS store per element).
#pragma once

#include "rocke/arch/target.hpp"
#include "rocke/families/gemm/spec.hpp"
#include "rocke/helpers/tile_gemm.hpp"

namespace rocke::families::gemm {

using GemmPlan = helpers::TileGemmPlan;
using helpers::OperandPlan;

// The main loop's tile: A k-contiguous when row-major, B when column-major.
helpers::TileShape tile_shape(const GemmSpec& spec);

// The plan, or SpecError for a spec the arch refuses.
GemmPlan plan_gemm(const GemmSpec& spec, const arch::ArchTarget& target);

}  // namespace rocke::families::gemm
