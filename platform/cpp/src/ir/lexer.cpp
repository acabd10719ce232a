// Python twin: rocke/ir/lexer.py
// The Python tokenizer is one regular expression whose alternatives are tried in order
// (ws, nl, ident, value, sym, str, hex, int, punct); the branches below keep that order.
#include "rocke/ir/lexer.hpp"

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

std::vector<Token> tokenize(std::string_view text, std::size_t start, std::int64_t first_line) {
  if (start > text.size()) start = text.size();
  std::vector<Token> tokens;
  tokens.reserve((text.size() - start) / 3 + 1);
  std::size_t pos = start;
  const std::size_t end = text.size();
  std::int64_t line = first_line;
  std::size_t line_start = start;
  auto col_of = [&](std::size_t p) { return static_cast<std::int64_t>(p - line_start) + 1; };
  auto emit = [&](TokenKind kind, std::size_t from, std::size_t to) {
    tokens.push_back(Token{kind, text.substr(from, to - from), line, col_of(from)});
  };
  while (pos < end) {
    char c = text[pos];
    std::size_t stop = pos + 1;
    if (c == ' ') {
      while (stop < end && text[stop] == ' ') ++stop;
    } else if (c == '\n') {
      emit(TokenKind::Nl, pos, stop);
      ++line;
      line_start = stop;
    } else if (is_alpha_(c)) {
      while (stop < end && is_ident_char(text[stop])) ++stop;
      emit(TokenKind::Ident, pos, stop);
    } else if (c == '%' && stop < end && is_digit(text[stop])) {
      while (stop < end && is_digit(text[stop])) ++stop;
      emit(TokenKind::Value, pos, stop);
    } else if (c == '@' && stop < end && is_alpha_(text[stop])) {
      while (stop < end && is_ident_char(text[stop])) ++stop;
      emit(TokenKind::Sym, pos, stop);
    } else if (c == '"') {
      while (stop < end && text[stop] != '"' && text[stop] != '\\' && text[stop] != '\n') ++stop;
      if (stop >= end || text[stop] != '"') raise_lex_error(text, pos, line, col_of(pos));
      ++stop;
      emit(TokenKind::Str, pos, stop);
    } else if (c == '0' && stop < end && text[stop] == 'x') {
      ++stop;
      while (stop < end && is_alnum(text[stop])) ++stop;
      emit(TokenKind::Hex, pos, stop);
    } else if (is_digit(c) || (c == '-' && stop < end && is_digit(text[stop]))) {
      while (stop < end && is_digit(text[stop])) ++stop;
      emit(TokenKind::Int, pos, stop);
    } else if (is_punct(c)) {
      emit(TokenKind::Punct, pos, stop);
    } else {
      raise_lex_error(text, pos, line, col_of(pos));
    }
    pos = stop;
  }
  tokens.push_back(Token{TokenKind::Eof, text.substr(end, 0), line, col_of(pos)});
  return tokens;
}

std::string describe_token(const Token& token) {
  if (token.kind == TokenKind::Eof) return "end of input";
  if (token.kind == TokenKind::Nl) return "end of line";
  return util::cat("'", echo(token.text), "'");
}

}  // namespace rocke::ir
