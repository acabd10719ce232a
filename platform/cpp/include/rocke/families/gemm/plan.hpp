// rocKE C++ engine: host-time plan of a gemm kernel on one arch -- every derived number, and the
// arch refusals.
// Python twin: rocke/families/gemm/plan.py
//
// LDS holds A as [bm][bk + lds_pad] and B as [bn][bk + lds_pad] (k contiguous for both, so MMA
// fragments are vector loads), in 1 or 2 stages. Global -> LDS copies read vectors along each
// operand's contiguous dimension: k for row-major A and column-major B (vector LDS stores), m or n
// otherwise (the copy transposes: one LDS store per element).
#pragma once

#include <cstdint>
#include <string>

#include "rocke/arch/mma.hpp"
#include "rocke/arch/target.hpp"
#include "rocke/families/gemm/spec.hpp"
#include "rocke/helpers/layout.hpp"
#include "rocke/helpers/lds.hpp"
#include "rocke/helpers/mma_frag.hpp"
#include "rocke/helpers/tiles.hpp"

namespace rocke::families::gemm {

inline constexpr std::int64_t kMaxLdsAllocElems = 65536;  // mem.lds_alloc count limit

// Staging of one input operand (A or B) through LDS.
struct OperandPlan {
  std::string name;             // "a" or "b"
  bool k_contiguous = false;    // the global layout puts consecutive k next to each other
  helpers::PaddedTile tile;     // [outer = bm or bn][bk + pad]
  helpers::TileSplit split;     // the copy: k-contiguous: bm lines of bk; else bk lines of bm
  helpers::FragmentPlan frag;
};

struct GemmPlan {
  const arch::MmaOp* op = nullptr;
  std::int64_t threads = 0;
  std::int64_t rep_m = 0;  // atoms per wave along m
  std::int64_t rep_n = 0;
  std::int64_t wave_tile_m = 0;  // bm / wm
  std::int64_t wave_tile_n = 0;
  std::int64_t stages = 0;
  OperandPlan a;
  OperandPlan b;
  helpers::SplitFormula c_row;
  helpers::SplitFormula c_col;
  std::int64_t lds_bytes = 0;
};

// The plan, or SpecError for a spec the arch refuses.
GemmPlan plan_gemm(const GemmSpec& spec, const arch::ArchTarget& target);

}  // namespace rocke::families::gemm
