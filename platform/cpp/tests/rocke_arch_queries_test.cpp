// ctest: the arch queries the families use (mma_ops, largest_k, operand_layout, fits_lds,
// occupancy) and the layout / fragment planning helpers, against values of the Python engine.
// Python twins: platform/tests/test_arch_mma.py, test_arch_occupancy.py, test_helpers_layout.py
// (the full cross-engine comparison of the builders is platform/tests/families/gemm/test_gemm_cpp.py).
#include <string>
#include <vector>

#include "check.hpp"
#include "rocke/arch/errors.hpp"
#include "rocke/arch/mma.hpp"
#include "rocke/arch/occupancy.hpp"
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
                                              "unknown arch 'gfx90a'; known: gfx942, gfx950, gfx1100, gfx1201",
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
  const std::vector<std::string> archs{"gfx942", "gfx950", "gfx1100", "gfx1201"};
  const std::vector<std::string> want{"1 0 2 8 0", "1 1 2 8 0", "1 0 0 16 0", "1 0 0 16 0"};
  for (std::size_t i = 0; i < archs.size(); ++i) {
    const std::string& a = archs[i];
    std::string got = ints({fits_lds(a, 65536), fits_lds(a, 65537),
                                 occupancy(a, {.vgprs = 128, .agprs = 64, .sgprs = 40, .lds_bytes = 32768,
                                               .workgroup_size = 256}),
                                 occupancy(a, {.vgprs = 32, .sgprs = 100, .workgroup_size = 64}),
                                 occupancy(a, {.vgprs = 300, .sgprs = 10, .workgroup_size = 64})});
    check_eq(got, want[i], cat("occupancy ", a));
  }
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

}  // namespace

int main() {
  mma_queries();
  occupancy_queries();
  fragment_plans();
  return rocke_test::finish("rocke_arch_queries_test");
}
