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

#include <atomic>
#include <cstdint>
#include <limits>
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
  // A copy starts with an empty memo; a move takes the memo along.
  LayoutExpr(const LayoutExpr& other) : source_(other.source_), nodes_(other.nodes_), root_(other.root_) {}
  LayoutExpr(LayoutExpr&& other) noexcept;
  LayoutExpr& operator=(const LayoutExpr& other);
  LayoutExpr& operator=(LayoutExpr&& other) noexcept;
  ~LayoutExpr();

  const std::string& source() const { return source_; }
  // The parse tree (Python's LayoutExpr.tree): nodes()[root()] is the top node.
  const std::vector<Node>& nodes() const { return nodes_; }
  std::size_t root() const { return root_; }
  // The value at (lane, slot). Values with 0 <= lane < kMemoLanes and 0 <= slot < kMemoSlots are
  // memoised (Python's MEMO_LIMIT: a wave's lanes times its slots): the builders ask for the same
  // few coordinates many times. Errors are raised each time, never memoised. A memoised value is
  // read inline (a grid sweep such as split_formula reads a thousand per formula); the range
  // checks cannot fail inside the memo's box, so the first read of a cell and every other
  // coordinate go through lookup().
  std::int64_t operator()(std::int64_t lane, std::int64_t slot) const {
    if (lane >= 0 && lane < kMemoLanes && slot >= 0 && slot < kMemoSlots) {
      if (const std::atomic<std::int64_t>* table = memo_.load(std::memory_order_acquire)) {
        const std::int64_t known = table[lane * kMemoSlots + slot].load(std::memory_order_relaxed);
        if (known != kUnset) return known;
      }
    }
    return lookup(lane, slot);
  }

  static constexpr std::int64_t kMemoLanes = 128;
  static constexpr std::int64_t kMemoSlots = 32;

 private:
  static constexpr std::int64_t kUnset = std::numeric_limits<std::int64_t>::min();  // no value is below -kIntLimit

  // operator() without the inline read: range checks, then the memo (filled here) or evaluate.
  std::int64_t lookup(std::int64_t lane, std::int64_t slot) const;
  std::int64_t evaluate(std::size_t node, std::int64_t lane, std::int64_t slot) const;
  // The memo, allocated on first use. Cells are atomics so that threads sharing a catalog formula
  // may fill it at once (every writer of a cell writes the same value).
  std::atomic<std::int64_t>* memo() const;

  std::string source_;
  std::vector<Node> nodes_;
  std::size_t root_ = 0;
  mutable std::atomic<std::atomic<std::int64_t>*> memo_{nullptr};
};

// Parse a layout formula (UTF-8 text), raising LayoutExprError on any malformed input.
LayoutExpr parse_layout_expr(std::string_view source);

// Parse and evaluate a layout formula in one step.
std::int64_t eval_layout_expr(std::string_view source, std::int64_t lane, std::int64_t slot);

}  // namespace rocke::arch
