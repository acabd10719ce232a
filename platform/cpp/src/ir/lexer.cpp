// Python twin: rocke/ir/lexer.py
// The Python tokenizer is one regular expression, matched at the current position, whose
// alternatives are tried in order (spaces skipped, then nl, ident, value, sym, str, hex, int,
// punct, eof, bad); the branches of TokenStream::lex keep that order.
#include "rocke/ir/lexer.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#include "rocke/ir/errors.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::ir {

namespace {

constexpr std::size_t kMaxTokenEcho = 32;

// Character classes as bits of one table lookup per byte (the lexer's inner loops).
enum CharClass : std::uint8_t { kAlpha_ = 1, kDigit = 2, kIdentRest = 4, kAlnum = 8, kPunct = 16 };

constexpr std::array<std::uint8_t, 256> char_classes() {
  std::array<std::uint8_t, 256> table{};
  for (int c = 0; c < 256; ++c) {
    bool upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z', digit = c >= '0' && c <= '9';
    std::uint8_t bits = 0;
    if (upper || lower || c == '_') bits |= kAlpha_;
    if (digit) bits |= kDigit;
    if (upper || lower || c == '_' || digit || c == '.') bits |= kIdentRest;
    if (upper || lower || digit) bits |= kAlnum;
    for (char p : std::string_view("{}()<>,:=")) bits |= c == static_cast<unsigned char>(p) ? kPunct : 0;
    table[static_cast<std::size_t>(c)] = bits;
  }
  return table;
}

constexpr std::array<std::uint8_t, 256> kCharClasses = char_classes();

bool has_class(char c, CharClass cls) { return (kCharClasses[static_cast<unsigned char>(c)] & cls) != 0; }
bool is_alpha_(char c) { return has_class(c, kAlpha_); }
bool is_digit(char c) { return has_class(c, kDigit); }
bool is_ident_char(char c) { return has_class(c, kIdentRest); }
bool is_alnum(char c) { return has_class(c, kAlnum); }
bool is_punct(char c) { return has_class(c, kPunct); }

[[noreturn]] void raise_lex_error(std::string_view text, std::size_t pos, std::int64_t line, std::int64_t col) {
  char c = text[pos];
  if (c == '%') throw ParseError(line, col, "expected digits after '%'");
  if (c == '@') throw ParseError(line, col, "expected a name after '@'");
  if (c == '"') {
    std::size_t stop = pos + 1;
    while (stop < text.size() && text[stop] != '"' && text[stop] != '\\' && text[stop] != '\n') ++stop;
    if (stop < text.size() && text[stop] == '\\') {
      throw ParseError(line, col + static_cast<std::int64_t>(stop - pos), "backslash is not allowed in strings");
    }
    throw ParseError(line, col, "unterminated string");
  }
  throw ParseError(line, col, std::string("unexpected character '") + c + "'");
}

}  // namespace

namespace {

bool is_bad_char(unsigned char c) { return (c < 0x20 && c != '\n') || c > 0x7E; }

// Offset of the first byte outside printable ASCII plus LF, or npos. Valid text is the common
// case, so 64-byte blocks are or-reduced without branches first (the compiler vectorizes that
// loop) and only the block holding a bad byte is searched byte by byte.
std::size_t first_bad_char(std::string_view text) {
  constexpr std::size_t kBlock = 64;
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t size = text.size();
  std::size_t pos = 0;
  for (; pos + kBlock <= size; pos += kBlock) {
    unsigned bad = 0;
    for (std::size_t i = 0; i < kBlock; ++i) {
      unsigned c = bytes[pos + i];
      bad |= static_cast<unsigned>(c < 0x20) & static_cast<unsigned>(c != '\n');
      bad |= static_cast<unsigned>(c > 0x7E);
    }
    if (bad != 0) break;
  }
  for (; pos < size; ++pos) {
    if (is_bad_char(bytes[pos])) return pos;
  }
  return std::string_view::npos;
}

}  // namespace

void check_characters(std::string_view text) {
  const std::size_t pos = first_bad_char(text);
  if (pos == std::string_view::npos) return;
  // Line and column are counted only for the refused byte, as in the Python twin.
  std::string_view before = text.substr(0, pos);
  const auto line = static_cast<std::int64_t>(std::count(before.begin(), before.end(), '\n')) + 1;
  const std::size_t last_nl = before.rfind('\n');
  const std::size_t line_start = last_nl == std::string_view::npos ? 0 : last_nl + 1;
  const auto col = static_cast<std::int64_t>(pos - line_start) + 1;
  auto code = static_cast<unsigned char>(text[pos]);
  if (code == 0x0D) throw ParseError(line, col, "carriage return is not allowed (LF line endings only)");
  if (code > 0x7F) throw ParseError(line, col, "non-ASCII character (the format is ASCII only)");
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned>(code));
  throw ParseError(line, col, std::string("control character ") + hex + " is not allowed");
}

std::string echo(std::string_view text) {
  if (text.size() > kMaxTokenEcho) return std::string(text.substr(0, kMaxTokenEcho)) + "...";
  return std::string(text);
}

TokenStream::TokenStream(std::string_view text, std::size_t start, std::int64_t first_line, std::size_t line_start)
    : text_(text),
      pos_(std::min(start, text.size())),
      line_(first_line),
      line_start_(line_start == std::string_view::npos ? pos_ : line_start),
      next_{TokenKind::Eof, {}, 0, 0} {
  lex();
}

void TokenStream::skip_newlines() {
  if (next_.kind != TokenKind::Nl) return;
  std::size_t blanks_end = pos_;
  while (blanks_end < text_.size() && (text_[blanks_end] == ' ' || text_[blanks_end] == '\n')) ++blanks_end;
  std::size_t last_nl = text_.substr(0, blanks_end).rfind('\n');
  std::size_t end = last_nl == std::string_view::npos || last_nl < pos_ ? pos_ : last_nl + 1;
  if (end > pos_) {
    for (std::size_t p = pos_; p < end; ++p) line_ += text_[p] == '\n' ? 1 : 0;
    line_start_ = end;
    pos_ = end;
  }
  lex();
}

// The token is written into next_ field by field: a Token returned by value and copied in stalls
// on store forwarding, and this runs once per token.
void TokenStream::lex() {
  const std::size_t end = text_.size();
  while (pos_ < end && text_[pos_] == ' ') ++pos_;
  const std::size_t pos = pos_;
  const std::int64_t col = static_cast<std::int64_t>(pos - line_start_) + 1;
  auto token = [&](TokenKind kind, std::size_t stop) {
    pos_ = stop;
    next_.kind = kind;
    next_.text = std::string_view(text_.data() + pos, stop - pos);
    next_.line = line_;
    next_.col = col;
  };
  if (pos >= end) return token(TokenKind::Eof, end);
  char c = text_[pos];
  std::size_t stop = pos + 1;
  if (c == '\n') {
    token(TokenKind::Nl, stop);
    ++line_;
    line_start_ = stop;
    return;
  }
  if (is_alpha_(c)) {
    while (stop < end && is_ident_char(text_[stop])) ++stop;
    return token(TokenKind::Ident, stop);
  }
  if (c == '%' && stop < end && is_digit(text_[stop])) {
    while (stop < end && is_digit(text_[stop])) ++stop;
    return token(TokenKind::Value, stop);
  }
  if (c == '@' && stop < end && is_alpha_(text_[stop])) {
    while (stop < end && is_ident_char(text_[stop])) ++stop;
    return token(TokenKind::Sym, stop);
  }
  if (c == '"') {
    while (stop < end && text_[stop] != '"' && text_[stop] != '\\' && text_[stop] != '\n') ++stop;
    if (stop >= end || text_[stop] != '"') raise_lex_error(text_, pos, line_, col);
    return token(TokenKind::Str, stop + 1);
  }
  if (c == '0' && stop < end && text_[stop] == 'x') {
    ++stop;
    while (stop < end && is_alnum(text_[stop])) ++stop;
    return token(TokenKind::Hex, stop);
  }
  if (is_digit(c) || (c == '-' && stop < end && is_digit(text_[stop]))) {
    while (stop < end && is_digit(text_[stop])) ++stop;
    return token(TokenKind::Int, stop);
  }
  if (is_punct(c)) return token(TokenKind::Punct, stop);
  raise_lex_error(text_, pos, line_, col);
}

std::vector<Token> tokenize(std::string_view text, std::size_t start, std::int64_t first_line) {
  TokenStream stream(text, start, first_line);
  std::vector<Token> tokens{stream.take()};
  while (tokens.back().kind != TokenKind::Eof) tokens.push_back(stream.take());
  return tokens;
}

std::string describe_token(const Token& token) {
  if (token.kind == TokenKind::Eof) return "end of input";
  if (token.kind == TokenKind::Nl) return "end of line";
  return util::cat("'", echo(token.text), "'");
}

}  // namespace rocke::ir
