// rocKE C++ engine: MMA fragments in LDS, from the catalog's lane/slot layouts.
// Python twin: rocke/helpers/mma_frag.py
//
// An operand tile sits in LDS as lines of stride elements: A as [m][k], B as [n][k] (k contiguous
// for both), so A's row formula and B's column formula pick the line ("outer") and the k formula
// the element within it ("inner"). Consecutive slots that step +1 along the line form a run, moved
// by one vector LDS access; an A or B fragment is usually a single run. C/D fragments plan the same
// way (outer = row for [m][n] tiles, outer = col for [n][m] tiles) and are written with
// store_fragment.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "rocke/arch/mma.hpp"
#include "rocke/helpers/layout.hpp"
#include "rocke/ir/builder.hpp"

namespace rocke::helpers {

struct FragmentRun {
  std::int64_t slot = 0;    // first slot of the run
  std::int64_t lanes = 0;   // consecutive slots in it
  std::int64_t offset = 0;  // element offset from the lane's base index: outer_offset * stride + inner_offset
};

// How one operand fragment is read from a [outer][stride] LDS tile.
struct FragmentPlan {
  const arch::MmaOperand* operand = nullptr;  // an entry of the MMA catalog
  SplitFormula outer;
  SplitFormula inner;
  std::int64_t stride = 0;
  std::vector<FragmentRun> runs;
  std::vector<std::int64_t> inner_lane_values;  // inner lane part of every lane (for alignment)
};

// Plan operand name ("a", "b" or "c") of op over lines of stride elements; nullopt when a layout
// formula is not separable.
std::optional<FragmentPlan> plan_fragment(const arch::MmaOp& op, std::string_view name, bool outer_is_row,
                                          std::int64_t stride);

// Element index of slot 0 for this lane: (line0 + outer(lane)) * stride + inner(lane).
ir::Value* fragment_base(ir::Builder& b, const FragmentPlan& plan, ir::Value* lane, ir::Value* line0,
                         ir::Hint name = {});

// Byte alignment of a run's LDS load: what the stride, the lanes' inner offsets, the run offset and
// the caller's other index terms (multiples, in elements) guarantee, at most 16 bytes.
std::int64_t run_align(const FragmentPlan& plan, const FragmentRun& run, std::int64_t esize,
                       const std::vector<std::int64_t>& multiples);

// The fragment at element index base + extra (extra: a build-time offset such as the k step), one
// vector LDS load per run. multiples: element counts every other term of base is a multiple of.
ir::Value* load_fragment(ir::Builder& b, ir::Value* lds, ir::Value* base, const FragmentPlan& plan,
                         std::int64_t extra, ir::Type elem, const std::vector<std::int64_t>& multiples,
                         ir::Hint name = {});

// Write a fragment (vec<elem x length>) to LDS at element index base + extra, one vector LDS
// store per run; the mirror of load_fragment.
void store_fragment(ir::Builder& b, ir::Value* lds, ir::Value* base, const FragmentPlan& plan, std::int64_t extra,
                    ir::Value* value, ir::Type elem, const std::vector<std::int64_t>& multiples);

}  // namespace rocke::helpers
