// rocKE C++ engine: tokenizer of the rocke.ir/1 text format.
// Python twin: rocke/ir/lexer.py (and describe_token of rocke/ir/types.py)
//
// Tokens: nl, ident, value (%N), sym (@NAME), str ("..."), hex (0x...), int (-?N), punct, eof.
// Spaces separate tokens; line feeds are tokens. Token text views the caller's source text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rocke::ir {

enum class TokenKind : std::uint8_t { Nl, Ident, Value, Sym, Str, Hex, Int, Punct, Eof };

struct Token {
  TokenKind kind;
  std::string_view text;
  std::int64_t line;
  std::int64_t col;
};

// Refuse anything outside printable ASCII plus LF, at its exact position (ParseError).
void check_characters(std::string_view text);

// A token's text for error messages, cut to a bounded length.
std::string echo(std::string_view text);

// Tokens of text[start:], lexed on demand with one token of lookahead (Python's TokenStream):
// line numbering starts at first_line, and line_start is the offset of that line's first
// character (columns count from it; npos means start). The caller has already run
// check_characters on text. After the last token, peek() and take() return eof forever. A lexer
// error (ParseError) is thrown when the token after the one taken is lexed.
class TokenStream {
 public:
  explicit TokenStream(std::string_view text, std::size_t start = 0, std::int64_t first_line = 1,
                       std::size_t line_start = std::string_view::npos);

  const Token& peek() const { return next_; }
  Token take() {
    Token tok = next_;
    if (tok.kind != TokenKind::Eof) lex();
    return tok;
  }
  // Drop nl tokens (blank lines) up to the next other token, in one scan.
  void skip_newlines();

 private:
  void lex();  // the next token into next_

  std::string_view text_;
  std::size_t pos_;
  std::int64_t line_;
  std::size_t line_start_;
  Token next_;
};

// All tokens of text[start:] as a vector, eof last (tests and tools; the parser streams).
std::vector<Token> tokenize(std::string_view text, std::size_t start = 0, std::int64_t first_line = 1);

// How error messages name a token: "end of input", "end of line" or "'TEXT'".
std::string describe_token(const Token& token);

}  // namespace rocke::ir
