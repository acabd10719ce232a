// Python twin: rocke/helpers/mma_frag.py
#include "rocke/helpers/mma_frag.hpp"

#include <algorithm>
#include <array>

#include "rocke/helpers/index.hpp"

namespace rocke::helpers {

std::optional<FragmentPlan> plan_fragment(const arch::MmaOp& op, std::string_view name, bool outer_is_row,
                                          std::int64_t stride) {
  const arch::MmaOperand& operand = op.operand(name);
  std::optional<SplitFormula> row = split_formula(operand.row_expr, op.wave_size, operand.length);
  std::optional<SplitFormula> col = split_formula(operand.col_expr, op.wave_size, operand.length);
  if (!row || !col) return std::nullopt;
  SplitFormula& outer = outer_is_row ? *row : *col;
  SplitFormula& inner = outer_is_row ? *col : *row;
  std::vector<FragmentRun> runs;
  for (std::int64_t s = 0; s < operand.length; ++s) {
    auto at = [](const SplitFormula& f, std::int64_t slot) { return f.slot_offsets[static_cast<std::size_t>(slot)]; };
    if (!runs.empty()) {
      FragmentRun& last = runs.back();
      bool same_line = at(outer, s) == at(outer, last.slot);
      if (same_line && at(inner, s) == at(inner, last.slot) + (s - last.slot)) {
        last.lanes += 1;
        continue;
      }
    }
    runs.push_back({s, 1, at(outer, s) * stride + at(inner, s)});
  }
  const arch::LayoutExpr& expr = outer_is_row ? operand.col_expr : operand.row_expr;
  std::vector<std::int64_t> lane_values;
  for (std::int64_t lane = 0; lane < op.wave_size; ++lane) lane_values.push_back(expr(lane, 0));
  return FragmentPlan{&operand, std::move(outer), std::move(inner), stride, std::move(runs), std::move(lane_values)};
}

ir::Value* fragment_base(ir::Builder& b, const FragmentPlan& plan, ir::Value* lane, ir::Value* line0, ir::Hint name) {
  ir::Value* line = b.add(line0, emit_lane_part(b, plan.outer.lane_part, lane));
  ir::Value* scaled = mul_i32(b, line, plan.stride);
  ir::Value* inner = emit_lane_part(b, plan.inner.lane_part, lane);
  return b.add(scaled, inner, std::move(name));
}

std::int64_t run_align(const FragmentPlan& plan, const FragmentRun& run, std::int64_t esize,
                       const std::vector<std::int64_t>& multiples) {
  // The terms [stride, offset, *inner_lane_values, *multiples], folded in place (gcd_all of the
  // joined list, without joining it: a plan has a term per lane).
  const std::array<std::int64_t, 2> head{plan.stride, run.offset};
  std::int64_t gcd = gcd_with(gcd_with(gcd_with(0, head), plan.inner_lane_values), multiples);
  return align_of_gcd(esize, std::min<std::int64_t>(16, run.lanes * esize), gcd);
}

namespace {

std::vector<std::int64_t> with_extra(const std::vector<std::int64_t>& multiples, std::int64_t extra) {
  std::vector<std::int64_t> out = multiples;
  out.push_back(extra);
  return out;
}

}  // namespace

ir::Value* load_fragment(ir::Builder& b, ir::Value* lds, ir::Value* base, const FragmentPlan& plan,
                         std::int64_t extra, ir::Type elem, const std::vector<std::int64_t>& multiples,
                         ir::Hint name) {
  std::int64_t esize = elem.bits() / 8;
  std::int64_t length = plan.operand->length;
  bool single = plan.runs.size() == 1;
  ir::Values parts;
  for (const FragmentRun& run : plan.runs) {
    std::int64_t align = run_align(plan, run, esize, with_extra(multiples, extra));
    ir::Value* index = add_i32(b, base, extra + run.offset);
    parts.push_back(b.lds_load(lds, index, {.lanes = run.lanes, .align = align, .name = single ? name : ir::Hint{}}));
  }
  if (single) return parts[0];
  ir::Value* frag = b.splat(b.const_(0.0, elem), length);
  for (std::size_t r = 0; r < plan.runs.size(); ++r) {
    const FragmentRun& run = plan.runs[r];
    for (std::int64_t j = 0; j < run.lanes; ++j) {
      ir::Value* element = run.lanes == 1 ? parts[r] : b.extract(parts[r], j);
      frag = b.insert(frag, element, run.slot + j);
    }
  }
  return frag;
}

void store_fragment(ir::Builder& b, ir::Value* lds, ir::Value* base, const FragmentPlan& plan, std::int64_t extra,
                    ir::Value* value, ir::Type elem, const std::vector<std::int64_t>& multiples) {
  std::int64_t esize = elem.bits() / 8;
  for (const FragmentRun& run : plan.runs) {
    ir::Value* index = add_i32(b, base, extra + run.offset);
    if (run.lanes == 1) {
      b.lds_store(lds, index, b.extract(value, run.slot));
      continue;
    }
    ir::Value* part = value;
    if (run.lanes != plan.operand->length) {
      part = b.splat(b.const_(0.0, elem), run.lanes);
      for (std::int64_t j = 0; j < run.lanes; ++j) part = b.insert(part, b.extract(value, run.slot + j), j);
    }
    b.lds_store(lds, index, part, {.align = run_align(plan, run, esize, with_extra(multiples, extra))});
  }
}

}  // namespace rocke::helpers
