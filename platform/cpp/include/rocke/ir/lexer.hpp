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

// Tokens of text[start:], whose first character sits at line first_line, column 1. The caller
// has already run check_characters on text. The last token is always eof.
std::vector<Token> tokenize(std::string_view text, std::size_t start = 0, std::int64_t first_line = 1);

// How error messages name a token: "end of input", "end of line" or "'TEXT'".
std::string describe_token(const Token& token);

}  // namespace rocke::ir
