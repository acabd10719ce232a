// Python twin: rocke/ir/lexer.py
// The Python tokenizer is one regular expression, matched at the current position, whose
// alternatives are tried in order (spaces skipped, then nl, ident, value, sym, str, hex, int,
// punct, eof, bad); the branches of TokenStream::lex keep that order.
#include "rocke/ir/lexer.hpp"

#include <algorithm>
#include <cstdio>

#include "rocke/ir/errors.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::ir {

namespace {

constexpr std::size_t kMaxTokenEcho = 32;

bool is_alpha_(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) { return is_alpha_(c) || is_digit(c) || c == '.'; }
bool is_alnum(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c); }
bool is_punct(char c) {
  return c == '{' || c == '}' || c == '(' || c == ')' || c == '<' || c == '>' || c == ',' || c == ':' || c == '=';
}

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

void check_characters(std::string_view text) {
  std::int64_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t pos = 0; pos < text.size(); ++pos) {
    auto code = static_cast<unsigned char>(text[pos]);
    if (code == '\n') {
      ++line;
      line_start = pos + 1;
      continue;
    }
    if (code >= 0x20 && code <= 0x7E) continue;
    auto col = static_cast<std::int64_t>(pos - line_start) + 1;
    if (code == 0x0D) throw ParseError(line, col, "carriage return is not allowed (LF line endings only)");
    if (code > 0x7F) throw ParseError(line, col, "non-ASCII character (the format is ASCII only)");
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned>(code));
    throw ParseError(line, col, std::string("control character ") + hex + " is not allowed");
  }
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
      next_(lex()) {}

Token TokenStream::take() {
  Token tok = next_;
  if (tok.kind != TokenKind::Eof) next_ = lex();
  return tok;
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
  next_ = lex();
}

Token TokenStream::lex() {
  const std::size_t end = text_.size();
  while (pos_ < end && text_[pos_] == ' ') ++pos_;
  const std::size_t pos = pos_;
  const std::int64_t col = static_cast<std::int64_t>(pos - line_start_) + 1;
  if (pos >= end) return Token{TokenKind::Eof, text_.substr(end, 0), line_, col};
  auto token = [&](TokenKind kind, std::size_t stop) {
    pos_ = stop;
    return Token{kind, text_.substr(pos, stop - pos), line_, col};
  };
  char c = text_[pos];
  std::size_t stop = pos + 1;
  if (c == '\n') {
    Token tok = token(TokenKind::Nl, stop);
    ++line_;
    line_start_ = stop;
    return tok;
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
