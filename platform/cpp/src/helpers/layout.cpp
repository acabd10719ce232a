// Python twin: rocke/helpers/layout.py
#include "rocke/helpers/layout.hpp"

#include <map>
#include <tuple>

#include "rocke/errors.hpp"
#include "rocke/helpers/index.hpp"

namespace rocke::helpers {

namespace {

Node make_node(char op, Node left, Node right) {
  auto node = std::make_shared<FormulaNode>();
  node->op = op;
  node->left = std::move(left);
  node->right = std::move(right);
  return node;
}

Node var_node(bool is_lane) {
  auto node = std::make_shared<FormulaNode>();
  node->op = 'v';
  node->is_lane = is_lane;
  return node;
}

// Python's // and % (floor division, the remainder takes the divisor's sign).
std::int64_t floor_div(std::int64_t a, std::int64_t c) {
  if (c == 0) throw ValueError("integer division or modulo by zero");
  std::int64_t q = a / c;
  return (a % c != 0 && ((a < 0) != (c < 0))) ? q - 1 : q;
}

std::int64_t floor_mod(std::int64_t a, std::int64_t c) { return a - floor_div(a, c) * c; }

Node fold(char op, const Node& left, const Node& right) {
  if (left->op == 'i' && right->op == 'i') {
    std::int64_t a = left->value;
    std::int64_t c = right->value;
    switch (op) {
      case '+': return int_node(a + c);
      case '-': return int_node(a - c);
      case '*': return int_node(a * c);
      case '/': return int_node(floor_div(a, c));
      default: return int_node(floor_mod(a, c));
    }
  }
  if (op == '*' && (left->is_int(0) || right->is_int(0))) return int_node(0);
  if ((op == '/' || op == '%') && left->is_int(0)) return int_node(0);
  if ((op == '+' || op == '-') && right->is_int(0)) return left;
  if (op == '+' && left->is_int(0)) return right;
  if ((op == '*' || op == '/') && right->is_int(1)) return left;
  if (op == '*' && left->is_int(1)) return right;
  return make_node(op, left, right);
}

Node tree_at(const std::vector<arch::LayoutExpr::Node>& nodes, std::size_t index) {
  const arch::LayoutExpr::Node& node = nodes[index];
  if (node.op == 'i') return int_node(node.value);
  if (node.op == 'v') return var_node(node.is_lane);
  Node left = tree_at(nodes, node.left);
  Node right = tree_at(nodes, node.right);
  return make_node(node.op, std::move(left), std::move(right));
}

}  // namespace

Node int_node(std::int64_t value) {
  auto node = std::make_shared<FormulaNode>();
  node->op = 'i';
  node->value = value;
  return node;
}

Node expr_tree(const arch::LayoutExpr& expr) { return tree_at(expr.nodes(), expr.root()); }

Node with_slot(const Node& node, std::int64_t slot) {
  if (node->op == 'i') return node;
  if (node->op == 'v') return node->is_lane ? node : int_node(slot);
  Node left = with_slot(node->left, slot);
  Node right = with_slot(node->right, slot);
  return fold(node->op, left, right);
}

namespace {

std::optional<SplitFormula> split_uncached(const arch::LayoutExpr& expr, std::int64_t wave_size,
                                           std::int64_t length) {
  std::vector<std::int64_t> offsets;
  for (std::int64_t s = 0; s < length; ++s) offsets.push_back(expr(0, s) - expr(0, 0));
  for (std::int64_t lane = 0; lane < wave_size; ++lane) {
    std::int64_t base = expr(lane, 0);
    for (std::int64_t s = 0; s < length; ++s) {
      if (expr(lane, s) - base != offsets[static_cast<std::size_t>(s)]) return std::nullopt;
    }
  }
  return SplitFormula{expr.source(), with_slot(expr_tree(expr), 0), std::move(offsets)};
}

}  // namespace

std::optional<SplitFormula> split_formula(const arch::LayoutExpr& expr, std::int64_t wave_size, std::int64_t length) {
  // A formula's split depends on its text, the wave size and the length only, and takes wave_size
  // x length evaluations: each is made once per thread (a kernel plans the same few MMA operands
  // many times). The formula trees are never changed once made, so the copies share them.
  using Key = std::tuple<std::string, std::int64_t, std::int64_t>;
  thread_local std::map<Key, std::optional<SplitFormula>, std::less<>> splits;
  auto key = std::forward_as_tuple(expr.source(), wave_size, length);
  auto found = splits.find(key);
  if (found == splits.end()) {
    found = splits.emplace(Key(expr.source(), wave_size, length), split_uncached(expr, wave_size, length)).first;
  }
  return found->second;
}

ir::Value* emit_lane_part(ir::Builder& b, const Node& node, ir::Value* lane) {
  if (node->op == 'i') return const_i32(b, node->value);
  if (node->op == 'v') return lane;
  ir::Value* left = emit_lane_part(b, node->left, lane);
  ir::Value* right = emit_lane_part(b, node->right, lane);
  switch (node->op) {
    case '+': return b.add(left, right);
    case '-': return b.sub(left, right);
    case '*': return b.mul(left, right);
    case '/': return b.divu(left, right);
    default: return b.remu(left, right);
  }
}

}  // namespace rocke::helpers
