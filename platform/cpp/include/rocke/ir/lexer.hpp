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

namespace lexer_detail {

// How a token starts, by its first character (one table lookup), and the character classes of
// the lexer's inner loops as bits of a second one.
enum Start : std::uint8_t { kBad, kSpace, kNl, kIdent, kPercent, kAt, kQuote, kZero, kDigit, kMinus, kPunct };
enum Class : std::uint8_t { kAlpha_ = 1, kDigitBit = 2, kIdentRest = 4, kAlnum = 8, kStrStop = 16 };

struct Tables {
  std::uint8_t start[256];
  std::uint8_t cls[256];
};

constexpr Tables make_tables() {
  Tables t{};
  for (int c = 0; c < 256; ++c) {
    bool upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z', digit = c >= '0' && c <= '9';
    std::uint8_t bits = 0;
    if (upper || lower || c == '_') bits |= kAlpha_;
    if (digit) bits |= kDigitBit;
    if (upper || lower || c == '_' || digit || c == '.') bits |= kIdentRest;
    if (upper || lower || digit) bits |= kAlnum;
    if (c == '"' || c == '\\' || c == '\n') bits |= kStrStop;
    t.cls[c] = bits;
    Start s = kBad;
    if (c == ' ') s = kSpace;
    else if (c == '\n') s = kNl;
    else if (upper || lower || c == '_') s = kIdent;
    else if (c == '%') s = kPercent;
    else if (c == '@') s = kAt;
    else if (c == '"') s = kQuote;
    else if (c == '0') s = kZero;
    else if (digit) s = kDigit;
    else if (c == '-') s = kMinus;
    else if (c == '{' || c == '}' || c == '(' || c == ')' || c == '<' || c == '>' || c == ',' || c == ':' || c == '=') s = kPunct;
    t.start[c] = s;
  }
  return t;
}

inline constexpr Tables kTables = make_tables();

inline bool has(char c, Class cls) { return (kTables.cls[static_cast<unsigned char>(c)] & cls) != 0; }

// The lexer error at text[pos] (a character no token starts with, or a bad string).
[[noreturn]] void raise_lex_error(std::string_view text, std::size_t pos, std::int64_t line, std::int64_t col);

}  // namespace lexer_detail

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
  // take() without the copy of the token taken.
  void advance() {
    if (next_.kind != TokenKind::Eof) lex();
  }
  // advance() when the caller can guess how the next token starts (a lexer_detail::Start): that
  // case is tested first, as a well-predicted branch, and the token is lexed the same either way.
  template <int Guess>
  void advance_guessing() {
    if (next_.kind != TokenKind::Eof) lex<Guess>();
  }
  // Drop nl tokens (blank lines) up to the next other token, in one scan.
  void skip_newlines() {
    if (next_.kind == TokenKind::Nl) skip_blanks();
  }

 private:
  template <int Guess = -1>
  void lex();  // the next token into next_ (inline below: it runs once per token)
  // The token starting at pos, of the start class given: its kind, and its end in stop.
#if defined(__GNUC__)
  [[gnu::always_inline]]
#endif
  inline TokenKind scan(unsigned start, std::size_t pos, std::size_t& stop, std::int64_t col);
  void skip_blanks();

  std::string_view text_;
  std::size_t pos_;
  std::int64_t line_;
  std::size_t line_start_;
  Token next_;
};

// The Python tokenizer is one regular expression whose alternatives are tried in order (spaces
// skipped, then nl, ident, value, sym, str, hex, int, punct, eof, bad). The first character
// decides between them (only '0x' against an int, and '%', '@', '-' against bad, look further),
// so one switch on it keeps that order. The token is written into next_ field by field: a Token
// returned by value and copied in stalls on store forwarding.
template <int Guess>
inline void TokenStream::lex() {
  const char* const data = text_.data();
  const std::size_t end = text_.size();
  std::size_t pos = pos_;
  while (pos < end && data[pos] == ' ') ++pos;
  pos_ = pos;
  const std::int64_t line = line_;
  const std::int64_t col = static_cast<std::int64_t>(pos - line_start_) + 1;
  if (pos >= end) {
    next_.kind = TokenKind::Eof;
    next_.text = std::string_view(data + end, 0);
    next_.line = line;
    next_.col = col;
    return;
  }
  const unsigned start = lexer_detail::kTables.start[static_cast<unsigned char>(data[pos])];
  std::size_t stop = pos + 1;
  TokenKind kind;
  if (Guess >= 0 && start == static_cast<unsigned>(Guess)) {
    kind = scan(static_cast<unsigned>(Guess), pos, stop, col);
  } else {
    kind = scan(start, pos, stop, col);
  }
  pos_ = stop;
  next_.kind = kind;
  next_.text = std::string_view(data + pos, stop - pos);
  next_.line = line;
  next_.col = col;
}

inline TokenKind TokenStream::scan(unsigned start, std::size_t pos, std::size_t& stop, std::int64_t col) {
  using namespace lexer_detail;
  const char* const data = text_.data();
  const std::size_t end = text_.size();
  switch (start) {
    case kNl:
      ++line_;
      line_start_ = stop;
      return TokenKind::Nl;
    case kIdent:
      while (stop < end && has(data[stop], kIdentRest)) ++stop;
      return TokenKind::Ident;
    case kPercent:
      if (stop >= end || !has(data[stop], kDigitBit)) raise_lex_error(text_, pos, line_, col);
      while (stop < end && has(data[stop], kDigitBit)) ++stop;
      return TokenKind::Value;
    case kAt:
      if (stop >= end || !has(data[stop], kAlpha_)) raise_lex_error(text_, pos, line_, col);
      while (stop < end && has(data[stop], kIdentRest)) ++stop;
      return TokenKind::Sym;
    case kQuote:
      while (stop < end && !has(data[stop], kStrStop)) ++stop;
      if (stop >= end || data[stop] != '"') raise_lex_error(text_, pos, line_, col);
      ++stop;
      return TokenKind::Str;
    case kZero:
      if (stop < end && data[stop] == 'x') {
        ++stop;
        while (stop < end && has(data[stop], kAlnum)) ++stop;
        return TokenKind::Hex;
      }
      [[fallthrough]];
    case kDigit:
      while (stop < end && has(data[stop], kDigitBit)) ++stop;
      return TokenKind::Int;
    case kMinus:
      if (stop >= end || !has(data[stop], kDigitBit)) raise_lex_error(text_, pos, line_, col);
      while (stop < end && has(data[stop], kDigitBit)) ++stop;
      return TokenKind::Int;
    case kPunct:
      return TokenKind::Punct;
    default:
      raise_lex_error(text_, pos, line_, col);
  }
}

// All tokens of text[start:] as a vector, eof last (tests and tools; the parser streams).
std::vector<Token> tokenize(std::string_view text, std::size_t start = 0, std::int64_t first_line = 1);

// How error messages name a token: "end of input", "end of line" or "'TEXT'".
std::string describe_token(const Token& token);

}  // namespace rocke::ir
