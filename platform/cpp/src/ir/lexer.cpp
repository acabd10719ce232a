// Python twin: rocke/ir/lexer.py
// TokenStream::lex, which runs once per token, is inline in the header.
#include "rocke/ir/lexer.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "rocke/ir/errors.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::ir {

namespace {

constexpr std::size_t kMaxTokenEcho = 32;

}  // namespace

namespace lexer_detail {

void raise_lex_error(std::string_view text, std::size_t pos, std::int64_t line, std::int64_t col) {
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

}  // namespace lexer_detail

namespace {

bool is_bad_char(unsigned char c) { return (c < 0x20 && c != '\n') || c > 0x7E; }

// Offset of the first byte outside printable ASCII plus LF, or npos. Valid text is the common
// case, so 64-byte blocks are tested whole first (SSE2 on x86-64: bytes below 0x20 other than LF,
// with the bytes from 0x80 up counted below 0x20 by the signed compare, and 0x7F; elsewhere an
// or-reduction the compiler vectorizes) and only the block holding a bad byte is searched byte by
// byte.
std::size_t first_bad_char(std::string_view text) {
  constexpr std::size_t kBlock = 64;
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t size = text.size();
  std::size_t pos = 0;
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(0x20), lf = _mm_set1_epi8('\n'), del = _mm_set1_epi8(0x7F);
  auto bad16 = [&](std::size_t at) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + at));
    __m128i low = _mm_andnot_si128(_mm_cmpeq_epi8(v, lf), _mm_cmplt_epi8(v, space));
    return _mm_or_si128(low, _mm_cmpeq_epi8(v, del));
  };
  for (; pos + kBlock <= size; pos += kBlock) {
    __m128i bad = _mm_or_si128(_mm_or_si128(bad16(pos), bad16(pos + 16)), _mm_or_si128(bad16(pos + 32), bad16(pos + 48)));
    if (_mm_movemask_epi8(bad) != 0) break;
  }
#else
  for (; pos + kBlock <= size; pos += kBlock) {
    unsigned char bad = 0;
    for (std::size_t i = 0; i < kBlock; ++i) {
      unsigned char c = bytes[pos + i];
      bad |= static_cast<unsigned char>((c < 0x20 && c != '\n') || c > 0x7E);
    }
    if (bad != 0) break;
  }
#endif
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

void TokenStream::skip_blanks() {
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
