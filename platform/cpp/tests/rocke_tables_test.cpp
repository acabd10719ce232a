// ctest: the generated tables load and hold what the engine relies on.
// Python twins: platform/tests/test_ir_optable.py, test_arch_facts.py, test_arch_mma.py (the
// full cross-engine comparison is platform/tests/test_cpp_tables.py).
#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "check.hpp"
#include "rocke/arch/errors.hpp"
#include "rocke/arch/layout_expr.hpp"
#include "rocke/arch/mma.hpp"
#include "rocke/arch/target.hpp"
#include "rocke/data/document.hpp"
#include "rocke/ir/attrs.hpp"
#include "rocke/ir/facts.hpp"
#include "rocke/ir/optable.hpp"
#include "rocke/ir/types.hpp"

using rocke_test::check;
using rocke_test::check_eq;
using rocke_test::check_throws;

namespace {

void documents() {
  std::set<std::string> paths;
  for (const auto* doc : rocke::data::all_documents()) paths.insert(std::string(doc->path));
  for (const char* path : {"rocke/ir/data/ir.toml", "rocke/ir/data/ops.toml", "rocke/arch/data/archs.toml",
                           "rocke/arch/data/mma.toml"}) {
    check(paths.contains(path), std::string("generated document ") + path);
  }
  check_throws<rocke::DataError>([] { rocke::data::document("nope.toml"); }, "no generated data file 'nope.toml'",
                                 "unknown document");
  auto ops = rocke::data::document("rocke/ir/data/ops.toml");
  check_throws<rocke::DataError>([&] { ops["op"].at(0)["bogus"]; },
                                 "rocke/ir/data/ops.toml: op[0]: 'bogus' is missing", "missing key names its path");
  check_throws<rocke::DataError>([&] { ops["op"].at(2)["name"].integer(); },
                                 "rocke/ir/data/ops.toml: op[2].name: expected an integer, found a string",
                                 "a table entry's path is its key after a dot");
  check_throws<rocke::DataError>([&] { ops.str(); }, "rocke/ir/data/ops.toml: (root): expected a string, found a table",
                                 "the root's path");
}

void ir_facts() {
  const auto& facts = rocke::ir::format_facts();
  check_eq(facts.version, "rocke.ir/1", "format version");
  check(facts.max_region_depth == 64 && facts.indent == 2, "format limits");
  check(rocke::ir::scalar_infos().size() == 8, "eight scalar types");
  check_eq(rocke::ir::i32.text(), "i32", "i32 constant");
  check_eq(rocke::ir::ptr(rocke::ir::vec(rocke::ir::f16, 4), "lds").text(), "ptr<vec<f16x4>, lds>", "ptr text");
  check(rocke::ir::kernel_attrs().size() == 2 && rocke::ir::param_attrs().size() == 4, "kernel and param attrs");
}

void op_table() {
  const auto& ops = rocke::ir::ops();
  check(ops.size() == rocke::data::document("rocke/ir/data/ops.toml")["op"].size(), "one OpDef per [[op]]");
  std::set<std::string> names;
  std::set<std::string> builders;
  for (const auto& op : ops) {
    check(names.insert(op.name).second, "unique op name " + op.name);
    if (!op.builder.empty()) check(builders.insert(op.builder).second, "unique builder " + op.builder);
  }
  for (const char* name : {"arith.constant", "arith.add", "math.rsqrt", "gpu.lane_id", "mem.buffer_load",
                           "xlane.ds_swizzle", "sync.barrier", "mma.mma", "vec.bitcast", "scf.for", "scf.if",
                           "scf.yield"}) {
    check(rocke::ir::find_op(name) != nullptr, std::string("op ") + name);
  }
  const auto& load = rocke::ir::get_op("mem.load");
  check(load.type_rule == "load" && load.attrs.size() == 2 && !load.pure, "mem.load row");
  check(load.rule == rocke::ir::TypeRule::Load && !load.explicit_rule && load.where == rocke::ir::Placement::Any,
        "mem.load enums");
  // every row's enums say what its texts say
  for (const auto& op : ops) {
    check(op.explicit_rule == rocke::ir::is_explicit_rule(op.type_rule), op.name + " explicit_rule");
    check((op.rule == rocke::ir::TypeRule::Explicit) == (op.type_rule == "explicit") &&
              (op.rule == rocke::ir::TypeRule::CastSameBits) == (op.type_rule == "cast_same_bits") &&
              (op.rule == rocke::ir::TypeRule::IterArgs) == (op.type_rule == "iter_args") &&
              (op.rule == rocke::ir::TypeRule::None) == (op.type_rule == "none"),
          op.name + " rule");
    check((op.where == rocke::ir::Placement::KernelBody) == (op.placement == "kernel_body") &&
              (op.where == rocke::ir::Placement::Terminator) == (op.placement == "terminator"),
          op.name + " placement");
    check(op.check_kinds.size() == op.checks.size(), op.name + " checks");
  }
  check(rocke::ir::get_op("mem.store").check_kinds == std::vector<rocke::ir::OpCheck>{rocke::ir::OpCheck::StoreValue},
        "mem.store checks its value");
  const auto& for_op = rocke::ir::get_op("scf.for");
  check(for_op.variadic_operands() && for_op.fixed_operand_count() == 3 && for_op.regions.size() == 1,
        "scf.for row");
  check_throws<rocke::ValueError>([] { rocke::ir::get_op("arith.nope"); }, "unknown op 'arith.nope'", "get_op");
}

void arch_facts() {
  const auto& names = rocke::arch::arch_names();
  check(names.size() == 5 && names[0] == "gfx942" && names[4] == "sm_90", "arch names in file order");
  const auto& gfx1100 = rocke::arch::get_arch("gfx1100");
  check(gfx1100.wave_size == 32 && gfx1100.mma_kind == "wmma", "gfx1100 facts");
  check(gfx1100.has_feature("ds_bpermute") && !gfx1100.has_feature("mfma"), "gfx1100 features");
  check_throws<rocke::arch::UnknownArchError>([] { rocke::arch::get_arch("gfx90a"); },
                                             "unknown arch 'gfx90a'; known: gfx942, gfx950, gfx1100, gfx1201, sm_90",
                                             "unknown arch");
  check_throws<rocke::ValueError>([&] { gfx1100.has_feature("warp_speed"); },
                                  std::string("unknown feature 'warp_speed'; known: ") + [] {
                                    std::string known;
                                    for (const auto& f : rocke::arch::feature_names()) {
                                      known += known.empty() ? f : ", " + f;
                                    }
                                    return known;
                                  }(),
                                  "unknown feature");
}

void mma_catalog() {
  check(!rocke::arch::mma_catalog().empty(), "catalog has ops");
  const auto& op = rocke::arch::mma_op("mfma_f32_16x16x16_f16");
  check(op.m == 16 && op.n == 16 && op.k == 16 && op.wave_size == 64, "mfma 16x16x16 shape");
  check_eq(op.a.llvm_type(), "<4 x half>", "A fragment LLVM type");
  auto sig = rocke::arch::get_arch("gfx942").mma_signature("mfma_f32_16x16x16_f16");
  check(sig.has_value() && (*sig)[2].text() == "vec<f32x4>", "gfx942 mma signature");
  check(!rocke::arch::get_arch("gfx1100").mma_signature("mfma_f32_16x16x16_f16").has_value(),
        "no MFMA on gfx1100");
  // lane 17 holds row 17 % 16 = 1 of A, columns 4 (17 / 16) + slot
  check(op.a.coords(17, 2) == std::pair<std::int64_t, std::int64_t>{1, 6}, "A layout of lane 17 slot 2");
  // every layout is a bijection onto the tile (times its replication)
  for (const auto& entry : rocke::arch::mma_catalog()) {
    for (const auto* frag : {&entry.a, &entry.b, &entry.c}) {
      std::set<std::pair<std::int64_t, std::int64_t>> cells;
      for (std::int64_t lane = 0; lane < entry.wave_size; ++lane) {
        for (std::int64_t slot = 0; slot < frag->length; ++slot) cells.insert(frag->coords(lane, slot));
      }
      check(static_cast<std::int64_t>(cells.size()) == frag->rows * frag->cols,
            entry.id + " " + frag->name + " covers its tile");
    }
  }
}

// Constraint::admits tests category bits: the bit of every type is the bit of its category text,
// and each class admits exactly the types of its categories.
void category_bits() {
  using rocke::ir::Type;
  std::vector<Type> types{Type(), rocke::ir::rsrc};
  for (std::size_t i = 0; i < rocke::ir::scalar_infos().size(); ++i) {
    Type scalar = Type::scalar(i);
    types.push_back(scalar);
    for (int lanes : {2, 4, 8}) {
      try {
        types.push_back(rocke::ir::vec(scalar, lanes));
      } catch (const rocke::Error&) {  // not a vector element type
      }
    }
    for (const std::string& space : rocke::ir::address_spaces()) {
      try {
        types.push_back(rocke::ir::ptr(scalar, space));
      } catch (const rocke::Error&) {  // not a pointee type
      }
    }
  }
  std::set<unsigned> bits;
  for (const Type& ty : types) {
    unsigned bit = rocke::ir::category_bit(ty);
    check(bit == rocke::ir::category_bit(ty.category()), "category bit of " + ty.category());
    check(ty.is_none() == (bit == rocke::ir::kNoCategoryBit), "a bit for every type but none: " + ty.category());
    bits.insert(bit);
  }
  check(bits.size() == 6 + rocke::ir::address_spaces().size(), "one bit per category (and none)");
  check(rocke::ir::category_bit("ptr_nowhere") == rocke::ir::kNoCategoryBit, "an unknown space has no bit");
  for (const char* text : {"int", "float", "vec", "vec_float", "ptr_global", "ptr_lds|int", "i32|vec_int"}) {
    rocke::ir::Constraint constraint(text);
    for (const Type& ty : types) {
      const auto& cats = constraint.categories();
      bool by_text = std::find(cats.begin(), cats.end(), ty.category()) != cats.end() ||
                     (std::string_view(text).starts_with("i32") && ty == rocke::ir::i32);
      check(constraint.admits(ty) == by_text, std::string(text) + " admits " + ty.category());
    }
  }
}

void layout_expr() {
  check(rocke::arch::eval_layout_expr("(lane + 7) / 2 - slot % 3", 9, 5) == 6, "evaluation");
  check(rocke::arch::eval_layout_expr("(0 - 7) / 2", 0, 0) == -4, "floor division");
  check(rocke::arch::eval_layout_expr("0 - 7 % 3", 0, 0) == -1, "modulo after subtraction");
  check(rocke::arch::eval_layout_expr("(0 - 7) % 3", 0, 0) == 2, "floor modulo");
  check_throws<rocke::arch::LayoutExprError>([] { rocke::arch::eval_layout_expr("lane / (slot - slot)", 1, 1); },
                                            "bad layout expression 'lane / (slot - slot)': division by zero",
                                            "division by zero");
  check_throws<rocke::arch::LayoutExprError>(
      [] { rocke::arch::eval_layout_expr("lane +", 1, 1); },
      "bad layout expression 'lane +': expected a number, 'lane', 'slot' or '(' at column 7, found end of input",
      "missing operand");
  check_throws<rocke::arch::LayoutExprError>([] { rocke::arch::eval_layout_expr("Lane", 1, 1); },
                                            "bad layout expression 'Lane': unexpected character at column 1",
                                            "unexpected character");
}

}  // namespace

int main() {
  documents();
  ir_facts();
  op_table();
  arch_facts();
  mma_catalog();
  category_bits();
  layout_expr();
  return rocke_test::finish("rocke_tables_test");
}
