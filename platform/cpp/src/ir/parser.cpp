// Python twin: rocke/ir/parser.py
// Each method below is the twin of the Python method of the same name, check for check and in
// the same order, so both engines report the same first error at the same position.
#include "rocke/ir/parser.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <optional>

#include "rocke/ir/errors.hpp"
#include "rocke/ir/facts.hpp"
#include "rocke/ir/floats.hpp"
#include "rocke/ir/id_map.hpp"
#include "rocke/ir/lexer.hpp"
#include "rocke/ir/names.hpp"
#include "rocke/ir/typecheck.hpp"

namespace rocke::ir {

namespace {

using ir::AttrDef;
using ir::AttrMap;
using ir::AttrValue;
using ir::Op;
using ir::OpDef;
using ir::Region;
using ir::Type;
using ir::Value;

// a == b, compared here (names and words are short: cheaper than a call to memcmp).
bool same_text(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

// One parsed attribute: name, name token, value token, its type (the words bool and str, or a
// parsed IR type: both kept without building their text) and type token.
struct RawAttr {
  std::string_view name;
  Token name_tok;
  Token value_tok;
  std::string_view type_word;  // "bool" or "str"; empty when the type is the IR type `type`
  Type type;
  Token type_tok;

  // The type as written (an IR type prints as it parses), for comparisons and messages.
  std::string type_text() const { return type_word.empty() ? type.text() : std::string(type_word); }
  // Whether the type is the one named `kind` (bool, str or an IR type's text).
  bool type_is(std::string_view kind) const {
    return type_word.empty() ? type.text() == kind : same_text(type_word, kind);
  }
};

// An integer literal of at most max_int_digits digits (wider than int64 when long).
struct IntLiteral {
  __int128 value;
  bool fits_int64;
};

const ir::Constraint& param_types() {
  static const ir::Constraint constraint(ir::format_facts().param_types);
  return constraint;
}

std::size_t id_digits() {
  static const std::size_t digits = std::to_string(ir::format_facts().max_value_id).size();
  return digits;
}

// The value of 16 upper-case hex digits (already checked).
std::uint64_t hex_bits(std::string_view digits) {
  std::uint64_t bits = 0;
  for (char c : digits) bits = (bits << 4) | static_cast<std::uint64_t>(c <= '9' ? c - '0' : c - 'A' + 10);
  return bits;
}

// Guesses of how the token after the one taken starts (see TokenStream::advance_guessing).
constexpr int kGuessPunct = lexer_detail::kPunct;
constexpr int kGuessIdent = lexer_detail::kIdent;
constexpr int kGuessValue = lexer_detail::kPercent;

class Parser {
 public:
  explicit Parser(std::string_view text)
      : text_(text),
        toks_(std::string_view()),
        max_value_id_(ir::format_facts().max_value_id),
        id_digits_(id_digits()),
        max_region_depth_(ir::format_facts().max_region_depth),
        arena_(std::make_unique<ir::Arena>()) {}

  ir::KernelDef parse();

 private:
  // ------------------------------------------------------------------ token helpers
  static ParseError error(const Token& tok, const std::string& what) { return ParseError(tok.line, tok.col, what); }

  // A token taken whose kind is already known is kept as its text alone (a view of text_): copying
  // a whole Token right after the lexer wrote it stalls on store forwarding (the copy's wide loads
  // span several of the lexer's stores), and this runs for most tokens. Its line and column are
  // counted only for an error, from its offset: every line feed after the header is a token or a
  // blank line the stream counts, so they are the stream's line and column of the token.
  struct Taken {
    std::string_view text;
  };
  ParseError error(const Taken& tok, const std::string& what) const {
    const std::size_t offset = static_cast<std::size_t>(tok.text.data() - text_.data());
    std::string_view before = text_.substr(0, offset);
    const auto line = static_cast<std::int64_t>(std::count(before.begin(), before.end(), '\n')) + 1;
    const std::size_t last_nl = before.rfind('\n');
    const std::size_t line_start = last_nl == std::string_view::npos ? 0 : last_nl + 1;
    return ParseError(line, static_cast<std::int64_t>(offset - line_start) + 1, what);
  }

  template <int G = -1>
  Taken take_known() {
    std::string_view text = peek().text;
    skip<G>();
    return Taken{text};
  }


  const Token& peek() const { return toks_.peek(); }

  Token take() { return toks_.take(); }
  // take() when the token taken is not needed; G guesses how the next token starts.
  template <int G = -1>
  void skip() {
    toks_.advance_guessing<G>();
  }

  // Punctuation tokens are one character, so they are compared as one.
  static bool is_punct(const Token& tok, char punct) { return tok.kind == TokenKind::Punct && tok.text[0] == punct; }

  // The expect_ helpers take the token, then check it: the lexer error of the token after it, if
  // any, comes first (as in Python), so the failing path takes a copy before it reports.
  template <int G = -1>
  void expect_punct(char punct) {
    if (is_punct(peek(), punct)) return skip<G>();
    Token tok = take();
    throw error(tok, "expected '" + std::string(1, punct) + "', found " + describe_token(tok));
  }

  void expect_word(std::string_view word) {
    if (peek().kind == TokenKind::Ident && peek().text == word) return skip();
    Token tok = take();
    throw error(tok, "expected '" + std::string(word) + "', found " + describe_token(tok));
  }

  template <int G = -1>
  void expect_end_of_line() {
    if (peek().kind == TokenKind::Nl) return skip<G>();
    Token tok = take();
    throw error(tok, "expected end of line, found " + describe_token(tok));
  }

  void skip_blank_lines() { toks_.skip_newlines(); }

  bool at_punct(char punct) const { return is_punct(toks_.peek(), punct); }

  // A scalar type name (most types written) is looked up here, by its length and first and last
  // letters and then its text; any other type goes to parse_type_stream, which reads a scalar name
  // the same way.
  Type type_only() {
    const Token& tok = peek();
    if (tok.kind == TokenKind::Ident) {
      const std::uint32_t key = text_key(tok.text);
      for (const ScalarName& scalar : scalars_) {
        if (scalar.key == key && same_text(tok.text, scalar.name)) {
          skip<kGuessPunct>();
          return scalar.type;
        }
      }
    }
    return ir::parse_type_stream(toks_);
  }

  static std::uint32_t text_key(std::string_view text) {  // text is not empty
    return static_cast<std::uint32_t>(text.size() & 0xFF) | (static_cast<std::uint32_t>(static_cast<unsigned char>(text[0])) << 8) |
           (static_cast<std::uint32_t>(static_cast<unsigned char>(text.back())) << 16);
  }

  std::pair<Type, Token> parse_type() {
    Token tok = peek();
    Type ty = type_only();
    return {ty, tok};
  }

  struct ScalarName {
    std::uint32_t key;
    std::string_view name;
    Type type;
  };
  static std::vector<ScalarName> scalar_table() {
    std::vector<ScalarName> table;
    const std::vector<ir::ScalarInfo>& infos = ir::scalar_infos();
    for (std::size_t i = 0; i < infos.size(); ++i) {
      if (!infos[i].name.empty()) table.push_back(ScalarName{text_key(infos[i].name), infos[i].name, Type::scalar(i)});
    }
    return table;
  }

  // ------------------------------------------------------------------ literals and ids
  std::int64_t value_id(const Taken& tok) const {
    std::string_view digits = tok.text.substr(1);
    const std::int64_t max_id = max_value_id_;
    std::int64_t id = 0;
    if (digits.size() <= id_digits_) {
      for (char c : digits) id = id * 10 + (c - '0');  // the lexer took only digits, at most id_digits of them
    }
    if (digits.size() > id_digits_ || id > max_id) {
      throw error(tok, "value id too large (max " + std::to_string(max_id) + ")");
    }
    if (digits.size() > 1 && digits[0] == '0') throw error(tok, "value id with a leading zero: " + echo(tok.text));
    return id;
  }

  IntLiteral int_literal(const Token& tok) const {
    std::string_view digits = tok.text;
    bool negative = !digits.empty() && digits[0] == '-';
    if (negative) digits.remove_prefix(1);
    const std::int64_t max_digits = ir::format_facts().max_int_digits;
    if (static_cast<std::int64_t>(digits.size()) > max_digits) {
      throw error(tok, "integer literal too long (max " + std::to_string(max_digits) + " digits)");
    }
    if ((digits.size() > 1 && digits[0] == '0') || tok.text == "-0") {
      throw error(tok, "integer literal with a leading zero or negative zero: " + echo(tok.text));
    }
    __int128 value = 0;
    for (char c : digits) value = value * 10 + (c - '0');  // at most max_int_digits (20) digits
    if (negative) value = -value;
    bool fits = value >= std::numeric_limits<std::int64_t>::min() && value <= std::numeric_limits<std::int64_t>::max();
    return IntLiteral{value, fits};
  }

  double float_literal(const Token& tok) const {
    std::string_view digits = tok.text.substr(2);
    bool ok = digits.size() == 16;
    for (char c : digits) ok = ok && ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'));
    if (!ok) throw error(tok, "float literal must be 0x followed by 16 upper-case hex digits");
    std::uint64_t bits = hex_bits(digits);
    double value = ir::bits_to_float(bits);
    if (ir::float_to_bits(value) != bits) throw error(tok, "non-canonical NaN (NaN is written 0x7FF8000000000000)");
    return value;
  }

  // ------------------------------------------------------------------ definitions and uses
  Value* define(const Taken& tok, Type ty, ir::Hint hint) {
    std::int64_t id = value_id(tok);
    if (defined_.contains(id)) throw error(tok, "value %" + std::to_string(id) + " is defined twice");
    Value* value = arena_->value(id, ty, std::move(hint));
    defined_.set(id, value);
    return value;
  }

  // The next token as a use of a value (taken first: a lexer error after it comes first).
  Value* use() {
    if (peek().kind != TokenKind::Value) {
      Token tok = take();
      throw error(tok, "expected a value id, found " + describe_token(tok));
    }
    Taken tok = take_known<kGuessPunct>();
    std::int64_t id = value_id(tok);
    Value* value = visible_.find(id);
    if (value == nullptr) {
      if (defined_.contains(id)) throw error(tok, "value %" + std::to_string(id) + " is not visible here");
      throw error(tok, "use of undefined value %" + std::to_string(id));
    }
    return value;
  }

  // %ID ["HINT"] : TYPE; returns the value and, when type_tok is given, sets its type token.
  Value* definition(Token* type_tok = nullptr) {
    if (peek().kind != TokenKind::Value) {
      Token tok = take();
      throw error(tok, "expected a value id, found " + describe_token(tok));
    }
    Taken tok = take_known<kGuessPunct>();
    ir::Hint hint;
    if (peek().kind == TokenKind::Str) {
      Taken hint_tok = take_known<kGuessPunct>();
      hint = std::string(hint_tok.text.substr(1, hint_tok.text.size() - 2));
      if (!ir::is_hint(*hint)) throw error(hint_tok, "invalid name hint " + echo(hint_tok.text));
    }
    expect_punct<kGuessIdent>(':');
    if (type_tok != nullptr) *type_tok = peek();
    Type ty = type_only();
    return define(tok, ty, std::move(hint));
  }

  // ------------------------------------------------------------------ attributes
  // {NAME = VALUE : TYPE, ...} with names strictly increasing. Only the entries attrs_for can
  // report on are kept: those named in defs and the first other one (the unknown attribute it
  // would name), so the list never outgrows the table.
  // The entries go to raws_ (cleared first), one list reused for every op: an op's attributes
  // are read and turned into its AttrMap before its regions are parsed.
  const std::vector<RawAttr>& raw_attrs(const std::vector<AttrDef>& defs) {
    expect_punct('{');
    std::vector<RawAttr>& entries = raws_;
    entries.clear();
    if (at_punct('}')) {
      skip();
      return entries;
    }
    auto known = [&](std::string_view name) {
      for (const AttrDef& adef : defs) {
        if (same_text(adef.name, name)) return true;
      }
      return false;
    };
    std::optional<std::string_view> last_name;
    bool kept_unknown = false;
    while (true) {
      Token name_tok = take();
      if (name_tok.kind != TokenKind::Ident) {
        throw error(name_tok, "expected an attribute name, found " + describe_token(name_tok));
      }
      if (last_name.has_value() && name_tok.text <= *last_name) {
        std::string what = name_tok.text == *last_name ? "duplicate attribute" : "attributes must be sorted by name:";
        throw error(name_tok, what + " '" + echo(name_tok.text) + "'");
      }
      last_name = name_tok.text;
      expect_punct('=');
      Token value_tok = take();
      bool is_literal = value_tok.kind == TokenKind::Int || value_tok.kind == TokenKind::Hex ||
                        value_tok.kind == TokenKind::Str;
      bool is_bool = value_tok.kind == TokenKind::Ident && (value_tok.text == "true" || value_tok.text == "false");
      if (!is_literal && !is_bool) {
        throw error(value_tok, "expected an attribute value, found " + describe_token(value_tok));
      }
      expect_punct(':');
      Token type_tok = peek();
      std::string_view type_word;
      Type attr_type;
      if (type_tok.kind == TokenKind::Ident && (type_tok.text == "bool" || type_tok.text == "str")) {
        skip();
        type_word = type_tok.text;
      } else {
        attr_type = type_only();
      }
      bool is_known = known(name_tok.text);
      if (is_known || !kept_unknown) {
        kept_unknown = kept_unknown || !is_known;
        entries.push_back(RawAttr{name_tok.text, name_tok, value_tok, type_word, attr_type, type_tok});
      }
      Token sep = take();
      if (is_punct(sep, '}')) return entries;
      if (!is_punct(sep, ',')) {
        throw error(sep, "expected ',' or '}', found " + describe_token(sep));
      }
    }
  }

  AttrValue attr_value(const AttrDef& adef, const RawAttr& raw, const Type& num_type) {
    auto name = [&] { return std::string(raw.name); };  // for messages only
    const std::string& kind = adef.kind;
    TokenKind want;
    if (same_text(kind, "num")) {
      if (!num_type.is_scalar()) {
        throw error(raw.type_tok, "attribute '" + name() + "' needs an int or float scalar result type");
      }
      if (!raw.type_word.empty() || raw.type != num_type) {  // a type's text names only that type
        throw error(raw.type_tok,
                    "attribute '" + name() + "' has type " + raw.type_text() + ", expected " + num_type.text());
      }
      want = num_type.is_int() ? TokenKind::Int : TokenKind::Hex;
    } else {
      if (!raw.type_is(kind)) {
        throw error(raw.type_tok, "attribute '" + name() + "' has type " + raw.type_text() + ", expected " + kind);
      }
      want = same_text(kind, "bool") ? TokenKind::Ident : (same_text(kind, "str") ? TokenKind::Str : TokenKind::Int);
    }
    const Token& value_tok = raw.value_tok;
    if (value_tok.kind != want) {
      throw error(value_tok,
                  "attribute '" + name() + "' value " + describe_token(value_tok) + " does not fit its type");
    }
    AttrValue value;
    if (want == TokenKind::Ident) {
      value = AttrValue::boolean(value_tok.text == "true");
    } else if (want == TokenKind::Str) {
      value = AttrValue::string(std::string(value_tok.text.substr(1, value_tok.text.size() - 2)));
    } else if (want == TokenKind::Hex) {
      value = AttrValue::real(float_literal(value_tok));
    } else {
      IntLiteral literal = int_literal(value_tok);
      if (!literal.fits_int64) {
        throw error(value_tok, *ir::check_wide_int_attr(adef, value_tok.text, num_type));
      }
      value = AttrValue::integer(static_cast<std::int64_t>(literal.value));
    }
    std::optional<std::string> problem = ir::check_attr_value(adef, value, num_type);
    if (problem.has_value()) throw error(value_tok, *problem);
    return value;
  }

  // Same order as the verifier: missing (table order), unknown (sorted = text order), values.
  AttrMap attrs_for(const std::vector<AttrDef>& defs, const std::vector<RawAttr>& raws, const Token& at,
                    const std::string& owner, const Type& num_type) {
    auto raw_named = [&](std::string_view name) -> const RawAttr* {
      for (const RawAttr& r : raws) {
        if (same_text(r.name, name)) return &r;
      }
      return nullptr;
    };
    for (const AttrDef& adef : defs) {
      if (raw_named(adef.name) == nullptr) throw error(at, "missing attribute '" + adef.name + "' for " + owner);
    }
    for (const RawAttr& raw : raws) {
      bool known = false;
      for (const AttrDef& adef : defs) known = known || same_text(adef.name, raw.name);
      if (!known) throw error(raw.name_tok, "unknown attribute '" + echo(raw.name) + "' for " + owner);
    }
    AttrMap attrs;
    // The tables list attributes by name, so each goes at the end (a hint, not a requirement).
    for (const AttrDef& adef : defs) {
      attrs.emplace_hint(attrs.end(), adef.name, attr_value(adef, *raw_named(adef.name), num_type));
    }
    return attrs;
  }

  // ------------------------------------------------------------------ structure
  ir::Param param();
  std::vector<Op*> region_ops(std::int64_t depth);
  Op* op(std::int64_t depth);
  std::vector<Region*> regions(const OpDef& opdef, std::int64_t depth);

  // find_op through a small cache of the ops seen (a text uses few opcodes): a slot chosen by
  // the name's length and two of its letters, checked by comparing the name.
  const OpDef* lookup_op(std::string_view name) {
    OpSlot& slot = op_cache_[(name.size() * 7 + static_cast<unsigned char>(name.back()) * 3 +
                              static_cast<unsigned char>(name[name.size() / 2])) % op_cache_.size()];
    if (slot.def != nullptr && same_text(slot.name, name)) return slot.def;
    const OpDef* opdef = ir::find_op(name);
    if (opdef != nullptr) slot = OpSlot{opdef->name, opdef};
    return opdef;
  }

  static const std::vector<RawAttr>& no_attrs() {
    static const std::vector<RawAttr> none;
    return none;
  }

  std::string_view text_;
  TokenStream toks_;
  const std::int64_t max_value_id_;
  const std::size_t id_digits_;
  const std::int64_t max_region_depth_;
  const std::vector<ScalarName> scalars_ = scalar_table();
  struct OpSlot {
    std::string_view name;
    const OpDef* def = nullptr;
  };
  std::array<OpSlot, 64> op_cache_{};
  std::vector<RawAttr> raws_;   // raw_attrs' entries
  ir::Values scratch_;          // an op's results, then its operands, before they get their own vector
  ir::IdMap visible_;
  ir::IdMap defined_;  // every value defined so far
  std::unique_ptr<ir::Arena> arena_;
};

ir::KernelDef Parser::parse() {
  check_characters(text_);
  const std::string& version = ir::format_facts().version;
  std::size_t newline = text_.find('\n');
  std::string_view header = newline == std::string_view::npos ? text_ : text_.substr(0, newline);
  if (header != version) {
    if (header.starts_with("rocke.ir/")) {
      throw ParseError(1, 1, "unsupported version '" + echo(header) + "' (expected '" + version + "')");
    }
    throw ParseError(1, 1, "expected version header '" + version + "'");
  }
  if (newline != std::string_view::npos) {
    toks_ = TokenStream(text_, newline + 1, 2);
  } else {
    toks_ = TokenStream(text_, text_.size(), 1, 0);
  }
  skip_blank_lines();
  expect_word("kernel");
  Token sym = take();
  if (sym.kind != TokenKind::Sym || !ir::is_kernel_name(sym.text.substr(1))) {
    throw error(sym, "expected @NAME (letters, digits, '_'), found " + describe_token(sym));
  }
  std::string name(sym.text.substr(1));
  Token at = peek();
  const std::vector<RawAttr>& raws = at_punct('{') ? raw_attrs(ir::kernel_attrs()) : no_attrs();
  AttrMap kernel_attrs = attrs_for(ir::kernel_attrs(), raws, at, "kernel @" + name, Type());
  expect_end_of_line();
  std::vector<ir::Param> params;
  skip_blank_lines();
  while (peek().kind == TokenKind::Ident && peek().text == "param") {
    params.push_back(param());
    skip_blank_lines();
  }
  expect_word("body");
  expect_punct('{');
  expect_end_of_line();
  Region* body = arena_->region({}, region_ops(1));
  skip_blank_lines();
  const Token& tok = peek();
  if (tok.kind != TokenKind::Eof) throw error(tok, "unexpected " + describe_token(tok) + " after the kernel body");
  return ir::KernelDef(std::move(name), std::move(params), std::move(kernel_attrs), body, std::move(arena_));
}

ir::Param Parser::param() {
  skip();
  Token type_tok{};
  Value* value = definition(&type_tok);
  if (!param_types().admits(value->type)) {
    throw error(type_tok, "type " + value->type.text() + " is not allowed for kernel params; allowed: " +
                              param_types().text());
  }
  Token at = peek();
  AttrMap attrs;
  if (value->type.is_ptr()) {
    const std::vector<RawAttr>& raws = at_punct('{') ? raw_attrs(ir::param_attrs()) : no_attrs();
    attrs = attrs_for(ir::param_attrs(), raws, at, "param %" + std::to_string(value->id), Type());
  } else if (at_punct('{')) {
    throw error(at, "attributes apply only to pointer params");
  }
  expect_end_of_line();
  visible_.set(value->id, value);
  return ir::Param{value, std::move(attrs)};
}

std::vector<Op*> Parser::region_ops(std::int64_t depth) {
  std::vector<Op*> ops;
  std::vector<std::int64_t> results_here;
  while (true) {
    skip_blank_lines();
    const Token& tok = peek();
    if (is_punct(tok, '}')) {
      skip();
      break;
    }
    if (tok.kind == TokenKind::Eof) throw error(tok, "expected '}' before end of input");
    Op* parsed = op(depth);
    ops.push_back(parsed);
    for (const Value* value : parsed->results) results_here.push_back(value->id);
  }
  for (std::int64_t id : results_here) visible_.erase(id);
  return ops;
}

Op* Parser::op(std::int64_t depth) {
  // Results and operands are gathered in scratch_ and copied once into vectors of their exact size
  // (no regrowth); scratch_ is free again before the regions, which parse ops of their own.
  scratch_.clear();
  if (peek().kind == TokenKind::Value) {
    while (true) {
      scratch_.push_back(definition());
      if (!at_punct(',')) break;
      skip<kGuessValue>();
    }
    expect_punct<kGuessIdent>('=');
  }
  ir::Values results(scratch_.begin(), scratch_.end());
  if (peek().kind != TokenKind::Ident) {
    Token tok = take();
    throw error(tok, "expected an op name, found " + describe_token(tok));
  }
  Taken name_tok = take_known<kGuessValue>();
  const OpDef* opdef = lookup_op(name_tok.text);
  if (opdef == nullptr) throw error(name_tok, "unknown op '" + echo(name_tok.text) + "'");
  scratch_.clear();
  if (peek().kind == TokenKind::Value) {
    while (true) {
      scratch_.push_back(use());
      if (!at_punct(',')) break;
      skip<kGuessValue>();
    }
  }
  ir::Values operands(scratch_.begin(), scratch_.end());
  try {
    ir::check_result_count(*opdef, results.size());
    ir::check_operand_count(*opdef, operands.size());
  } catch (const ir::OpCheckError& exc) {
    throw error(name_tok, opdef->name + " " + exc.detail());
  }
  Type num_type = results.empty() ? Type() : results[0]->type;
  AttrMap attrs;
  if (!opdef->attrs.empty() || at_punct('{')) {  // else attrs_for has nothing to check
    Token at = peek();
    const std::vector<RawAttr>& raws = at_punct('{') ? raw_attrs(opdef->attrs) : no_attrs();
    attrs = attrs_for(opdef->attrs, raws, at, opdef->name, num_type);
  }
  std::vector<Region*> parsed_regions = regions(*opdef, depth);
  expect_end_of_line<kGuessValue>();
  for (Value* value : results) visible_.set(value->id, value);
  return arena_->op(*opdef, std::move(operands), std::move(results), std::move(attrs), std::move(parsed_regions));
}

std::vector<Region*> Parser::regions(const OpDef& opdef, std::int64_t depth) {
  std::vector<Region*> out;
  const std::int64_t max_depth = max_region_depth_;
  while (peek().kind == TokenKind::Ident) {
    Token name_tok = take();
    std::size_t index = out.size();
    if (index >= opdef.regions.size()) {
      std::size_t n = opdef.regions.size();
      throw error(name_tok, "unexpected '" + echo(name_tok.text) + "': " + opdef.name + " has " + std::to_string(n) +
                                " region" + (n != 1 ? "s" : ""));
    }
    const std::string& expected = opdef.regions[index].name;
    if (name_tok.text != expected) {
      throw error(name_tok, "expected region '" + expected + "', found '" + echo(name_tok.text) + "'");
    }
    ir::Values args;
    if (at_punct('(')) {
      skip();
      if (!at_punct(')')) {
        while (true) {
          args.push_back(definition());
          if (!at_punct(',')) break;
          skip();
        }
      }
      expect_punct(')');
    }
    const Token brace = peek();
    expect_punct('{');
    if (depth + 1 > max_depth) throw error(brace, "region nesting deeper than " + std::to_string(max_depth));
    expect_end_of_line();
    for (Value* value : args) visible_.set(value->id, value);
    std::vector<Op*> ops = region_ops(depth + 1);
    for (Value* value : args) visible_.erase(value->id);
    out.push_back(arena_->region(std::move(args), std::move(ops)));
  }
  if (out.size() != opdef.regions.size()) {
    throw error(peek(), opdef.name + " needs region '" + opdef.regions[out.size()].name + "'");
  }
  return out;
}

}  // namespace

ir::KernelDef parse_kernel(std::string_view text) { return Parser(text).parse(); }

}  // namespace rocke::ir
