// rocKE C++ engine: MMA layout formulas in IR: split a catalog formula f(lane, slot) into a lane
// part emitted once as IR and per-slot constant offsets.
// Python twin: rocke/helpers/layout.py
//
// A formula is separable when f(lane, slot) - f(lane, 0) does not depend on the lane; every
// formula of the catalog is. Then f(lane, slot) = f(lane, 0) + offset(slot): the lane part (the
// formula with slot = 0, constant-folded) becomes a few IR ops and each slot adds a build-time
// constant. Lane values are non-negative, so floor division and modulo emit as divu and remu.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rocke/arch/layout_expr.hpp"
#include "rocke/ir/builder.hpp"

namespace rocke::helpers {

// A formula tree node, Python's tuples ("int", v) | ("var", "lane" | "slot") | (op, left, right).
struct FormulaNode;
using Node = std::shared_ptr<const FormulaNode>;

struct FormulaNode {
  char op = 'i';  // 'i' an integer, 'v' a variable, or one of + - * / %
  std::int64_t value = 0;  // of an integer
  bool is_lane = false;    // of a variable: lane (else slot)
  Node left;
  Node right;

  bool is_int(std::int64_t v) const { return op == 'i' && value == v; }
};

Node int_node(std::int64_t value);
// The tree of a parsed layout formula (Python's LayoutExpr.tree).
Node expr_tree(const arch::LayoutExpr& expr);

// f(lane, slot) = lane_part(lane) + slot_offsets[slot].
struct SplitFormula {
  std::string source;
  Node lane_part;  // the formula with slot = 0, constant-folded
  std::vector<std::int64_t> slot_offsets;
};

// The tree with slot replaced by a constant, constant-folded bottom up.
Node with_slot(const Node& node, std::int64_t slot);

// The separable split of a layout formula over lanes 0..wave_size-1 and slots 0..length-1, or
// nullopt when the formula is not separable.
std::optional<SplitFormula> split_formula(const arch::LayoutExpr& expr, std::int64_t wave_size, std::int64_t length);

// IR computing a slot-free formula tree for this lane.
ir::Value* emit_lane_part(ir::Builder& b, const Node& node, ir::Value* lane);

}  // namespace rocke::helpers
