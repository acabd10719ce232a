// rocKE C++ engine: the tiny expression grammar of the MMA catalog's fragment layouts.
// Python twin: rocke/arch/layout_expr.py
//
//     expr   := term (('+' | '-') term)*
//     term   := factor (('*' | '/' | '%') factor)*
//     factor := INT | 'lane' | 'slot' | '(' expr ')'
//     INT    := [0-9]+
//
// Spaces are allowed between tokens; a formula is at most kMaxLength characters. '/' is floor
// division and '%' the matching floor modulo; division by zero is an error; there is no unary
// minus. Literals and every intermediate value stay within +-kIntLimit. Every failure is a
// LayoutExprError with the Python engine's message.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rocke::arch {

inline constexpr std::size_t kMaxLength = 200;
inline constexpr std::int64_t kIntLimit = 2147483647;  // 2**31 - 1

// A parsed layout formula; evaluate with expr(lane, slot).
class LayoutExpr {
 public:
  // A node of the parse tree: a literal, a variable, or a binary operator over two nodes.
  struct Node {
    char op;  // 'i' literal, 'v' variable, or one of + - * / %
    std::int64_t value;
    bool is_lane;
    std::size_t left;
    std::size_t right;
  };

  LayoutExpr() = default;
  LayoutExpr(std::string source, std::vector<Node> nodes, std::size_t root)
      : source_(std::move(source)), nodes_(std::move(nodes)), root_(root) {}

  const std::string& source() const { return source_; }
  // The parse tree (Python's LayoutExpr.tree): nodes()[root()] is the top node.
  const std::vector<Node>& nodes() const { return nodes_; }
  std::size_t root() const { return root_; }
  std::int64_t operator()(std::int64_t lane, std::int64_t slot) const;

 private:
  std::int64_t evaluate(std::size_t node, std::int64_t lane, std::int64_t slot) const;

  std::string source_;
  std::vector<Node> nodes_;
  std::size_t root_ = 0;
};

// Parse a layout formula (UTF-8 text), raising LayoutExprError on any malformed input.
LayoutExpr parse_layout_expr(std::string_view source);

// Parse and evaluate a layout formula in one step.
std::int64_t eval_layout_expr(std::string_view source, std::int64_t lane, std::int64_t slot);

}  // namespace rocke::arch
