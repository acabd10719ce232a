// ctest: the arch queries the families use (mma_ops, largest_k, operand_layout, fits_lds,
// occupancy) and the layout / fragment planning helpers, against values of the Python engine.
// Python twins: platform/tests/test_arch_mma.py, test_arch_occupancy.py, test_helpers_layout.py
// (the full cross-engine comparison of the builders is platform/tests/families/gemm/test_gemm_cpp.py).
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "check.hpp"
#include "rocke/arch/errors.hpp"
#include "rocke/arch/mma.hpp"
#include "rocke/arch/occupancy.hpp"
#include "rocke/helpers/chain.hpp"
#include "rocke/helpers/layout.hpp"
#include "rocke/helpers/mma_frag.hpp"
#include "rocke/util/strings.hpp"

using rocke_test::check;
using rocke_test::check_eq;
using rocke_test::check_throws;

namespace {

using rocke::util::cat;

std::string ids(const std::vector<const rocke::arch::MmaOp*>& ops) {
  std::vector<std::string> out;
  for (const auto* op : ops) out.push_back(op->id);
  return rocke::util::join(out, " ");
}

std::string id_or_none(const rocke::arch::MmaOp* op) { return op == nullptr ? "None" : op->id; }

// The Python tuple form of a formula tree, e.g. ('%', ('var', 'lane'), ('int', 32)).
std::string tree_text(const rocke::helpers::Node& node) {
  if (node->op == 'i') return cat("('int', ", std::to_string(node->value), ")");
  if (node->op == 'v') return cat("('var', '", node->is_lane ? "lane" : "slot", "')");
  return cat("('", std::string(1, node->op), "', ", tree_text(node->left), ", ", tree_text(node->right), ")");
}

std::string ints(const std::vector<std::int64_t>& values) {
  std::vector<std::string> out;
  for (std::int64_t v : values) out.push_back(std::to_string(v));
  return rocke::util::join(out, " ");
}

void mma_queries() {
  using rocke::arch::largest_k;
  using rocke::arch::mma_ops;
  check_eq(ids(mma_ops({.arch = "gfx950", .a_dtype = "f16"})),
           "mfma_f32_32x32x8_f16 mfma_f32_16x16x16_f16 mfma_f32_16x16x32_f16 mfma_f32_32x32x16_f16", "mma_ops arch");
  check_eq(ids(mma_ops({.b_dtype = "bf16", .acc_dtype = "f32", .m = 16, .n = 16})),
           "mfma_f32_16x16x16_bf16 mfma_f32_16x16x32_bf16 wmma_f32_16x16x16_bf16_gfx11 wmma_f32_16x16x16_bf16_gfx12",
           "mma_ops shape");
  check_eq(id_or_none(largest_k("gfx942", "f16", "f16", "f32")), "mfma_f32_16x16x16_f16", "largest_k gfx942");
  check_eq(id_or_none(largest_k("gfx942", "bf16", "bf16", "f32", 32)), "mfma_f32_32x32x8_bf16", "largest_k m=32");
  check_eq(id_or_none(largest_k("gfx950", "f16", "f16", "f32", 32)), "mfma_f32_32x32x16_f16", "largest_k gfx950");
  check_eq(id_or_none(largest_k("gfx1201", "bf16", "bf16", "f32")), "wmma_f32_16x16x16_bf16_gfx12", "largest_k gfx12");
  check_eq(id_or_none(largest_k("gfx1100", "f16", "f16", "f32", 32)), "None", "largest_k nothing");
  check_throws<rocke::ValueError>([] { mma_ops({.a_dtype = "f8"}); },
                                  "unknown a_dtype 'f8'; known: i1, i8, i16, i32, i64, f16, bf16, f32", "bad dtype");
  check_throws<rocke::ValueError>([] { mma_ops({.acc_dtype = "x"}); },
                                  "unknown acc_dtype 'x'; known: i1, i8, i16, i32, i64, f16, bf16, f32", "bad acc");
  check_throws<rocke::arch::UnknownArchError>([] { mma_ops({.arch = "gfx90a"}); },
                                              "unknown arch 'gfx90a'; known: gfx942, gfx950, gfx1100, gfx1201, sm_90",
                                              "bad arch");
  auto layout = rocke::arch::operand_layout("mfma_f32_32x32x8_f16", "a");
  check(layout.size() == 256, "operand_layout size");
  check((layout[2] == std::array<std::int64_t, 4>{0, 2, 0, 2}), "operand_layout slot 2");
  check((layout.back() == std::array<std::int64_t, 4>{63, 3, 31, 7}), "operand_layout last");
  auto wmma_c = rocke::arch::operand_layout("wmma_f32_16x16x16_f16_gfx12", "c");
  check((wmma_c[37] == std::array<std::int64_t, 4>{4, 5, 5, 4}), "operand_layout wmma c");
}

void occupancy_queries() {
  using rocke::arch::fits_lds;
  using rocke::arch::occupancy;
  const std::vector<std::string> archs{"gfx942", "gfx950", "gfx1100", "gfx1201", "sm_90"};
  // sm_90 has no AGPRs or SGPRs (asking for them leaves no room) and 227 KiB per block.
  const std::vector<std::string> want{"1 0 2 8 0", "1 1 2 8 0", "1 0 0 16 0", "1 0 0 16 0", "1 1 0 0 0"};
  for (std::size_t i = 0; i < archs.size(); ++i) {
    const std::string& a = archs[i];
    std::string got = ints({fits_lds(a, 65536), fits_lds(a, 65537),
                                 occupancy(a, {.vgprs = 128, .agprs = 64, .sgprs = 40, .lds_bytes = 32768,
                                               .workgroup_size = 256}),
                                 occupancy(a, {.vgprs = 32, .sgprs = 100, .workgroup_size = 64}),
                                 occupancy(a, {.vgprs = 300, .sgprs = 10, .workgroup_size = 64})});
    check_eq(got, want[i], cat("occupancy ", a));
  }
  // The CUDA rules: 128 registers per thread leave 16 warps per SM (4 per sub-partition); 32 per
  // thread and two-warp blocks fill the 64 warps (32 blocks).
  check_eq(ints({occupancy("sm_90", {.vgprs = 128, .lds_bytes = 32768, .workgroup_size = 256}),
                 occupancy("sm_90", {.vgprs = 32, .workgroup_size = 64})}),
           "4 16", "occupancy sm_90");
  check_throws<rocke::ValueError>([] { occupancy("gfx942", {.vgprs = -1, .workgroup_size = 1}); },
                                  "occupancy: vgprs must be a non-negative int", "negative vgprs");
  check_throws<rocke::ValueError>([] { occupancy("gfx942", {.vgprs = 1}); },
                                  "occupancy: workgroup_size must be at least 1", "empty workgroup");
  check_throws<rocke::ValueError>([] { fits_lds("gfx942", -1); }, "fits_lds: nbytes must be a non-negative int",
                                  "negative lds");
}

void fragment_plans() {
  using rocke::helpers::plan_fragment;
  auto a = plan_fragment(rocke::arch::mma_op("mfma_f32_32x32x8_f16"), "a", true, 40);
  check(a.has_value() && a->runs.size() == 1 && a->runs[0].lanes == 4 && a->runs[0].offset == 0, "mfma A: one run");
  check_eq(tree_text(a->outer.lane_part), "('%', ('var', 'lane'), ('int', 32))", "mfma A outer");
  check_eq(tree_text(a->inner.lane_part), "('*', ('/', ('var', 'lane'), ('int', 32)), ('int', 4))", "mfma A inner");
  check_eq(ints(a->inner.slot_offsets), "0 1 2 3", "mfma A inner offsets");
  auto c = plan_fragment(rocke::arch::mma_op("wmma_f32_16x16x16_f16_gfx11"), "c", true, 16);
  check(c.has_value() && c->runs.size() == 8 && c->runs[3].offset == 96 && c->runs[3].lanes == 1, "wmma C runs");
  check_eq(tree_text(c->outer.lane_part), "('/', ('var', 'lane'), ('int', 16))", "wmma C outer");
  check_eq(ints(c->outer.slot_offsets), "0 2 4 6 8 10 12 14", "wmma C outer offsets");
  auto folded = rocke::helpers::with_slot(
      rocke::helpers::expr_tree(rocke::arch::parse_layout_expr("(slot * 0 + lane) / 1 + 0 * lane - (slot % 4)")), 6);
  check_eq(tree_text(folded), "('-', ('var', 'lane'), ('int', 2))", "with_slot folds");
  auto mixed = rocke::helpers::split_formula(rocke::arch::parse_layout_expr("(lane + slot) / 2"), 4, 2);
  check(!mixed.has_value(), "a non-separable formula has no split");
}

// plan_chain keeps the C tile's (lane, row, col) -> (rep, slot) in a flat hash table; the same
// search over an ordered map (the plain reading of the Python dict) must give the same plans.
using Picks = std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>>;

std::optional<Picks> plan_chain_by_map(const rocke::arch::MmaOp& first, std::int64_t reps,
                                       const rocke::arch::MmaOp& next, bool is_b) {
  if (first.wave_size != next.wave_size) return std::nullopt;
  std::int64_t chained = is_b ? first.m : first.n;
  std::int64_t other = is_b ? next.n : next.m;
  if (other != (is_b ? first.n : first.m) || (reps * chained) % next.k != 0) return std::nullopt;
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, std::pair<std::int64_t, std::int64_t>> source;
  for (std::int64_t rep = 0; rep < reps; ++rep) {
    for (std::int64_t lane = 0; lane < first.wave_size; ++lane) {
      for (std::int64_t slot = 0; slot < first.c.length; ++slot) {
        auto [row, col] = first.c.coords(lane, slot);
        (is_b ? row : col) += rep * chained;
        source[{lane, row, col}] = {rep, slot};
      }
    }
  }
  const rocke::arch::MmaOperand& dest = next.operand(is_b ? "b" : "a");
  Picks picks;
  for (std::int64_t step = 0; step < reps * chained / next.k; ++step) {
    std::vector<std::pair<std::int64_t, std::int64_t>> row_picks;
    for (std::int64_t slot = 0; slot < dest.length; ++slot) {
      std::optional<std::pair<std::int64_t, std::int64_t>> pick;
      for (std::int64_t lane = 0; lane < next.wave_size; ++lane) {
        auto [row, col] = dest.coords(lane, slot);
        (is_b ? row : col) += step * next.k;
        auto found = source.find({lane, row, col});
        if (found == source.end() || (pick && found->second != *pick)) return std::nullopt;
        pick = found->second;
      }
      row_picks.push_back(*pick);
    }
    picks.push_back(std::move(row_picks));
  }
  return picks;
}

void chain_plans() {
  int found = 0;
  // The second pass finds the plans of catalog rows remembered: they must still be right.
  for (int pass = 0; pass < 2; ++pass) {
    for (const rocke::arch::MmaOp& first : rocke::arch::mma_catalog()) {
      for (const rocke::arch::MmaOp& next : rocke::arch::mma_catalog()) {
        bool same_shape = next.wave_size == first.wave_size && next.m == first.m && next.n == first.n;
        if (&next != &first && !same_shape) continue;
        for (std::int64_t reps = -1; reps <= 4; ++reps) {
          for (bool is_b : {false, true}) {
            auto got = rocke::helpers::plan_chain(first, reps, next, is_b ? "b" : "a");
            auto want = plan_chain_by_map(first, reps, next, is_b);
            std::string what =
                cat("plan_chain ", first.id, " x", std::to_string(reps), " -> ", next.id, is_b ? " b" : " a");
            check(got.has_value() == want.has_value(), what + ": found");
            if (got && want) {
              std::int64_t steps = reps * (is_b ? first.m : first.n) / next.k;
              check(got->picks == *want && got->steps == steps, what + ": picks");
              found += !want->empty();
            }
          }
        }
      }
    }
  }
  check(found > 0, "some catalog pair has a register path");
  // A copy of a catalog row is no catalog row: its plan is made for it, not the one remembered
  // for the row it was copied from (the memo keys catalog rows by address).
  const rocke::arch::MmaOp& row = rocke::arch::mma_op("mfma_f32_32x32x8_f16");
  rocke::arch::MmaOp copy = row;
  check(rocke::arch::is_catalog_row(row) && !rocke::arch::is_catalog_row(copy), "is_catalog_row");
  copy.k = row.k * 2;
  auto remembered = rocke::helpers::plan_chain(row, 2, row, "b");
  auto own = rocke::helpers::plan_chain(copy, 2, copy, "b");
  auto want = plan_chain_by_map(copy, 2, copy, true);
  check(remembered && remembered->steps == 2 * row.m / row.k, "plan_chain of the row");
  check(own.has_value() == want.has_value() && (!own || (own->picks == *want && own->steps == 2 * row.m / copy.k)),
        "plan_chain of a changed copy is its own");
}

}  // namespace

int main() {
  mma_queries();
  occupancy_queries();
  fragment_plans();
  chain_plans();
  return rocke_test::finish("rocke_arch_queries_test");
}
