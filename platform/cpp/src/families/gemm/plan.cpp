// Python twin: rocke/families/gemm/plan.py
#include "rocke/families/gemm/plan.hpp"

#include <optional>

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::families::gemm {

namespace {

std::string str(std::int64_t value) { return std::to_string(value); }

OperandPlan operand(const GemmSpec& spec, const std::string& name, std::int64_t outer, bool k_contiguous,
                    std::int64_t stages, std::int64_t threads, bool outer_is_row) {
  std::int64_t esize = helpers::elem_bytes(spec.a_dtype);
  helpers::PaddedTile tile{outer, spec.bk, spec.lds_pad, stages};
  std::optional<helpers::TileSplit> split;
  if (k_contiguous) {
    split = helpers::split_tile(outer, spec.bk, threads, esize);
  } else {
    split = helpers::split_tile(spec.bk, outer, threads, esize);
  }
  std::string_view field = name == "a" ? "bm" : "bn";
  std::string upper = name == "a" ? "A" : "B";
  if (!split) {
    spec.fail(field, util::cat("the ", upper, " tile of ", str(outer), " x ", str(spec.bk),
                               " elements does not split evenly over ", str(threads), " threads"));
  }
  if (tile.count() > kMaxLdsAllocElems) {
    spec.fail(field, util::cat("the ", upper, " LDS tile holds ", str(tile.count()),
                               " elements, over the allocation limit of ", str(kMaxLdsAllocElems)));
  }
  std::optional<helpers::FragmentPlan> frag = helpers::plan_fragment(spec.atom(), name, outer_is_row, tile.stride());
  if (!frag) spec.fail("op_id", util::cat("has a ", upper, " fragment layout that is not lane/slot separable"));
  return OperandPlan{
      .name = name, .k_contiguous = k_contiguous, .tile = tile, .split = *split, .frag = std::move(*frag)};
}

}  // namespace

GemmPlan plan_gemm(const GemmSpec& spec, const arch::ArchTarget& target) {
  const arch::MmaOp& op = spec.atom();
  if (!target.mma_signature(spec.op_id)) {
    spec.fail("op_id",
              util::cat("is not available on ", target.name, " (it runs on ", util::join(op.archs, ", "), ")"));
  }
  std::int64_t threads = spec.threads();
  if (threads > target.max_workgroup_size) {
    spec.fail("wm", util::cat("wm * wn = ", str(spec.wm * spec.wn), " waves of ", str(op.wave_size),
                              " lanes exceed the ", str(target.max_workgroup_size),
                              "-thread workgroup limit of ", target.name));
  }
  std::int64_t stages = spec.double_buffer ? 2 : 1;
  OperandPlan a = operand(spec, "a", spec.bm, spec.a_layout == "row", stages, threads, true);
  OperandPlan b = operand(spec, "b", spec.bn, spec.b_layout == "col", stages, threads, false);
  std::int64_t esize = helpers::elem_bytes(spec.a_dtype);
  std::int64_t lds_bytes = a.tile.nbytes(esize) + b.tile.nbytes(esize);
  if (lds_bytes > target.lds_bytes) {
    spec.fail("bk", util::cat("the LDS tiles need ", str(lds_bytes), " bytes (", str(stages), " stage(s) of (",
                              str(spec.bm), " + ", str(spec.bn), ") x (", str(spec.bk), " + ", str(spec.lds_pad),
                              ") ", spec.a_dtype, "), over the ", str(target.lds_bytes), " bytes of ", target.name));
  }
  std::optional<helpers::SplitFormula> c_row = helpers::split_formula(op.c.row_expr, op.wave_size, op.c.length);
  std::optional<helpers::SplitFormula> c_col = helpers::split_formula(op.c.col_expr, op.wave_size, op.c.length);
  if (!c_row || !c_col) spec.fail("op_id", "has a C fragment layout that is not lane/slot separable");
  std::int64_t wave_tile_m = spec.bm / spec.wm;
  std::int64_t wave_tile_n = spec.bn / spec.wn;
  return GemmPlan{.op = &op,
                  .threads = threads,
                  .rep_m = wave_tile_m / op.m,
                  .rep_n = wave_tile_n / op.n,
                  .wave_tile_m = wave_tile_m,
                  .wave_tile_n = wave_tile_n,
                  .stages = stages,
                  .a = std::move(a),
                  .b = std::move(b),
                  .c_row = std::move(*c_row),
                  .c_col = std::move(*c_col),
                  .lds_bytes = lds_bytes};
}

}  // namespace rocke::families::gemm
