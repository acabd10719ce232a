// Python twin: rocke/arch/layout_expr.py
#include "rocke/arch/layout_expr.hpp"

#include <algorithm>
#include <limits>

#include "rocke/arch/errors.hpp"

namespace rocke::arch {

namespace {

struct Token {
  enum class Kind { Int, Name, Op, Open, Close, End } kind;
  std::string text;
  std::size_t column;  // 1-based column of the token's first character
};

std::string prefix(std::string_view source) { return "bad layout expression '" + std::string(source) + "': "; }

// Python's len(): code points of UTF-8 text.
std::size_t code_points(std::string_view text) {
  std::size_t count = 0;
  for (char c : text) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return count;
}

bool digits_exceed_limit(std::string_view digits) {
  std::size_t first = digits.find_first_not_of('0');
  if (first == std::string_view::npos) return false;
  std::string_view significant = digits.substr(first);
  if (significant.size() > 10) return true;
  return std::stoll(std::string(significant)) > kIntLimit;
}

std::vector<Token> tokenize(std::string_view source) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  const std::size_t n = source.size();
  while (i < n) {
    char ch = source[i];
    if (ch == ' ') {
      ++i;
    } else if (ch >= '0' && ch <= '9') {
      std::size_t start = i;
      while (i < n && source[i] >= '0' && source[i] <= '9') ++i;
      std::string_view digits = source.substr(start, i - start);
      if (digits_exceed_limit(digits)) {
        throw LayoutExprError(prefix(source) + "number too large at column " + std::to_string(start + 1));
      }
      tokens.push_back({Token::Kind::Int, std::string(digits), start + 1});
    } else if (ch >= 'a' && ch <= 'z') {
      std::size_t start = i;
      while (i < n && source[i] >= 'a' && source[i] <= 'z') ++i;
      std::string word(source.substr(start, i - start));
      if (word != "lane" && word != "slot") {
        throw LayoutExprError(prefix(source) + "unknown name '" + word + "' at column " + std::to_string(start + 1));
      }
      tokens.push_back({Token::Kind::Name, word, start + 1});
    } else if (ch == '+' || ch == '-' || ch == '*' || ch == '/' || ch == '%') {
      tokens.push_back({Token::Kind::Op, std::string(1, ch), i + 1});
      ++i;
    } else if (ch == '(' || ch == ')') {
      tokens.push_back({ch == '(' ? Token::Kind::Open : Token::Kind::Close, std::string(1, ch), i + 1});
      ++i;
    } else {
      // Every earlier character was ASCII, so the byte index is the character index.
      throw LayoutExprError(prefix(source) + "unexpected character at column " + std::to_string(i + 1));
    }
  }
  tokens.push_back({Token::Kind::End, "", code_points(source) + 1});
  return tokens;
}

class Parser {
 public:
  explicit Parser(std::string_view source) : source_(source), tokens_(tokenize(source)) {}

  LayoutExpr parse() {
    if (peek().kind == Token::Kind::End) throw LayoutExprError(prefix(source_) + "empty");
    std::size_t root = expr();
    if (peek().kind != Token::Kind::End) throw fail("an operator");
    return LayoutExpr(std::string(source_), std::move(nodes_), root);
  }

 private:
  const Token& peek() const { return tokens_[pos_]; }

  LayoutExprError fail(const std::string& what) const {
    const Token& tok = peek();
    std::string found = tok.kind == Token::Kind::End ? "end of input" : "'" + tok.text + "'";
    return LayoutExprError(prefix(source_) + "expected " + what + " at column " + std::to_string(tok.column) +
                           ", found " + found);
  }

  std::size_t add(LayoutExpr::Node node) {
    nodes_.push_back(node);
    return nodes_.size() - 1;
  }

  std::size_t expr() {
    std::size_t node = term();
    while (peek().kind == Token::Kind::Op && (peek().text == "+" || peek().text == "-")) {
      char op = tokens_[pos_++].text[0];
      std::size_t right = term();
      node = add({op, 0, false, node, right});
    }
    return node;
  }

  std::size_t term() {
    std::size_t node = factor();
    while (peek().kind == Token::Kind::Op && (peek().text == "*" || peek().text == "/" || peek().text == "%")) {
      char op = tokens_[pos_++].text[0];
      std::size_t right = factor();
      node = add({op, 0, false, node, right});
    }
    return node;
  }

  std::size_t factor() {
    const Token& tok = peek();
    if (tok.kind == Token::Kind::Int) {
      ++pos_;
      return add({'i', std::stoll(tok.text.substr(std::min(tok.text.find_first_not_of('0'), tok.text.size() - 1))),
                  false, 0, 0});
    }
    if (tok.kind == Token::Kind::Name) {
      ++pos_;
      return add({'v', 0, tok.text == "lane", 0, 0});
    }
    if (tok.kind == Token::Kind::Open) {
      ++pos_;
      std::size_t node = expr();
      if (peek().kind != Token::Kind::Close) throw fail("')'");
      ++pos_;
      return node;
    }
    throw fail("a number, 'lane', 'slot' or '('");
  }

  std::string_view source_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  std::vector<LayoutExpr::Node> nodes_;
};

}  // namespace

namespace {

constexpr std::size_t kMemoCells = static_cast<std::size_t>(LayoutExpr::kMemoLanes * LayoutExpr::kMemoSlots);

}  // namespace

LayoutExpr::LayoutExpr(LayoutExpr&& other) noexcept
    : source_(std::move(other.source_)), nodes_(std::move(other.nodes_)), root_(other.root_),
      memo_(other.memo_.exchange(nullptr)) {}

LayoutExpr& LayoutExpr::operator=(const LayoutExpr& other) {
  if (this != &other) {
    source_ = other.source_;
    nodes_ = other.nodes_;
    root_ = other.root_;
    delete[] memo_.exchange(nullptr);
  }
  return *this;
}

LayoutExpr& LayoutExpr::operator=(LayoutExpr&& other) noexcept {
  if (this != &other) {
    source_ = std::move(other.source_);
    nodes_ = std::move(other.nodes_);
    root_ = other.root_;
    delete[] memo_.exchange(other.memo_.exchange(nullptr));
  }
  return *this;
}

LayoutExpr::~LayoutExpr() { delete[] memo_.load(); }

std::atomic<std::int64_t>* LayoutExpr::memo() const {
  std::atomic<std::int64_t>* table = memo_.load(std::memory_order_acquire);
  if (table != nullptr) return table;
  auto* fresh = new std::atomic<std::int64_t>[kMemoCells];
  for (std::size_t i = 0; i < kMemoCells; ++i) fresh[i].store(kUnset, std::memory_order_relaxed);
  if (memo_.compare_exchange_strong(table, fresh, std::memory_order_acq_rel)) return fresh;
  delete[] fresh;  // another thread's table won
  return table;
}

std::int64_t LayoutExpr::lookup(std::int64_t lane, std::int64_t slot) const {
  for (auto [name, value] : {std::pair<const char*, std::int64_t>{"lane", lane}, {"slot", slot}}) {
    if (value > kIntLimit || value < -kIntLimit) {
      throw LayoutExprError(prefix(source_) + name + " must be a 32-bit int");
    }
  }
  if (lane < 0 || lane >= kMemoLanes || slot < 0 || slot >= kMemoSlots) return evaluate(root_, lane, slot);
  std::atomic<std::int64_t>& cell = memo()[static_cast<std::size_t>(lane * kMemoSlots + slot)];
  std::int64_t known = cell.load(std::memory_order_relaxed);
  if (known != kUnset) return known;
  std::int64_t value = evaluate(root_, lane, slot);
  cell.store(value, std::memory_order_relaxed);
  return value;
}

std::int64_t LayoutExpr::evaluate(std::size_t index, std::int64_t lane, std::int64_t slot) const {
  const Node& node = nodes_[index];
  if (node.op == 'i') return node.value;
  if (node.op == 'v') return node.is_lane ? lane : slot;
  const std::int64_t left = evaluate(node.left, lane, slot);
  const std::int64_t right = evaluate(node.right, lane, slot);
  std::int64_t value = 0;
  if (node.op == '+') {
    value = left + right;
  } else if (node.op == '-') {
    value = left - right;
  } else if (node.op == '*') {
    value = left * right;  // |left|, |right| <= 2**31 - 1: the product fits in 64 bits
  } else if (right == 0) {
    throw LayoutExprError(prefix(source_) + "division by zero");
  } else {
    // Python's floor division and the matching modulo (the result takes the divisor's sign).
    std::int64_t quotient = left / right;
    std::int64_t remainder = left % right;
    if (remainder != 0 && ((remainder < 0) != (right < 0))) {
      quotient -= 1;
      remainder += right;
    }
    value = node.op == '/' ? quotient : remainder;
  }
  if (value > kIntLimit || value < -kIntLimit) throw LayoutExprError(prefix(source_) + "value out of range");
  return value;
}

LayoutExpr parse_layout_expr(std::string_view source) {
  if (code_points(source) > kMaxLength) {
    throw LayoutExprError("bad layout expression: longer than " + std::to_string(kMaxLength) + " characters");
  }
  return Parser(source).parse();
}

std::int64_t eval_layout_expr(std::string_view source, std::int64_t lane, std::int64_t slot) {
  return parse_layout_expr(source)(lane, slot);
}

}  // namespace rocke::arch
