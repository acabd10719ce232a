// rocKE C++ engine: small string helpers with Python's semantics.
// Python twins: str.join (", ".join(items)), str(int) and string concatenation.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace rocke::util {

// sep.join(items)
template <class Items>
std::string join(const Items& items, std::string_view sep) {
  std::string out;
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += sep;
    out += item;
    first = false;
  }
  return out;
}

// Concatenation by appending left to right (a + b + c). Used where the left operand is a short
// literal and the right a temporary: GCC 12 misreports libstdc++'s insert-at-front path for
// such sums (-Wrestrict false positive).
template <class... Parts>
std::string cat(const Parts&... parts) {
  const std::string_view views[] = {std::string_view(parts)...};
  std::size_t size = 0;
  for (std::string_view view : views) size += view.size();
  std::string out;
  out.reserve(size);  // one allocation (none within the small-string buffer)
  for (std::string_view view : views) out.append(view);
  return out;
}

namespace detail {

// The first and the last sizeof(Word) bytes of a text of n bytes, sizeof(Word) <= n <= 2 *
// sizeof(Word): two word-sized moves, overlapping when n is short. same_text compares them and
// copy_text writes them, so a short text needs no call of memcmp or memcpy.
template <class Word>
struct Ends {
  Word head;
  Word tail;

  Ends(const char* text, std::size_t n) {
    std::memcpy(&head, text, sizeof(Word));
    std::memcpy(&tail, text + n - sizeof(Word), sizeof(Word));
  }
  bool operator==(const Ends& other) const { return ((head ^ other.head) | (tail ^ other.tail)) == 0; }
  void put(char* out, std::size_t n) const {
    std::memcpy(out, &head, sizeof(Word));
    std::memcpy(out + n - sizeof(Word), &tail, sizeof(Word));
  }
};

}  // namespace detail

// a == b. Names the engine looks up (attribute, field and table names) are a few bytes: up to 16
// they are compared inline, where std::string_view's == calls memcmp.
inline bool same_text(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  const char* x = a.data();
  const char* y = b.data();
  if (n >= 8 && n <= 16) return detail::Ends<std::uint64_t>(x, n) == detail::Ends<std::uint64_t>(y, n);
  if (n >= 4 && n < 8) return detail::Ends<std::uint32_t>(x, n) == detail::Ends<std::uint32_t>(y, n);
  if (n < 4) return n == 0 || (x[0] == y[0] && x[n / 2] == y[n / 2] && x[n - 1] == y[n - 1]);
  return std::memcmp(x, y, n) == 0;
}

// Copy n bytes of src to out and return out + n. Most texts the printer and the lowerer copy are
// a few bytes (names, types, keywords, punctuation): those are copied inline, where a copy of
// variable length would otherwise be a call of memcpy.
inline char* copy_text(char* out, const char* src, std::size_t n) {
  if (n >= 8 && n <= 16) {
    detail::Ends<std::uint64_t>(src, n).put(out, n);
  } else if (n >= 4 && n < 8) {
    detail::Ends<std::uint32_t>(src, n).put(out, n);
  } else if (n > 0 && n < 4) {
    out[0] = src[0];
    out[n / 2] = src[n / 2];
    out[n - 1] = src[n - 1];
  } else if (n > 16) {
    std::memcpy(out, src, n);
  }
  return out + n;
}

namespace detail {

inline constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// The digits of value < 10000 at at; returns their end.
inline char* write_small_int(char* at, unsigned value) {
  if (value < 10) {
    at[0] = static_cast<char>('0' + value);
    return at + 1;
  }
  if (value < 100) {
    std::memcpy(at, kDigitPairs + value * 2, 2);
    return at + 2;
  }
  if (value < 1000) {
    at[0] = static_cast<char>('0' + value / 100);
    std::memcpy(at + 1, kDigitPairs + (value % 100) * 2, 2);
    return at + 3;
  }
  std::memcpy(at, kDigitPairs + (value / 100) * 2, 2);
  std::memcpy(at + 2, kDigitPairs + (value % 100) * 2, 2);
  return at + 4;
}

// The digits of value >= 10000, written backwards from the last digit, two at a time.
[[gnu::noinline]] inline char* write_large_int(char* at, std::uint64_t rest) {
  std::size_t digits = 1;
  for (std::uint64_t bound = 10; rest >= bound && digits < 19; bound *= 10) ++digits;
  char* end = at + digits;
  char* cursor = end;
  while (rest >= 100) {
    cursor -= 2;
    std::memcpy(cursor, kDigitPairs + (rest % 100) * 2, 2);
    rest /= 100;
  }
  if (rest >= 10) {
    cursor -= 2;
    std::memcpy(cursor, kDigitPairs + rest * 2, 2);
  } else {
    *--cursor = static_cast<char>('0' + rest);
  }
  return end;
}

}  // namespace detail

// The one spelling of str(value) of an int64: written at at, which has room for 20 bytes (a sign
// and at most 19 digits); returns its end. Ids and attribute values are mostly below 10000, which
// take a branch and at most two two-digit copies.
inline char* write_int(char* at, std::int64_t value) {
  if (value < 0) return std::to_chars(at, at + 20, value).ptr;
  if (value < 10000) return detail::write_small_int(at, static_cast<unsigned>(value));
  return detail::write_large_int(at, static_cast<std::uint64_t>(value));
}

// Appends str(value) of an int64 to out (no temporary string).
inline void append_int(std::string& out, std::int64_t value) {
  char buf[20];
  out.append(buf, write_int(buf, value));
}

// str(value) of a Python int that fits in 128 bits.
inline std::string int_text(__int128 value) {
  if (value == 0) return "0";
  bool negative = value < 0;
  unsigned __int128 magnitude = negative ? static_cast<unsigned __int128>(-(value + 1)) + 1u
                                         : static_cast<unsigned __int128>(value);
  std::string digits;
  while (magnitude != 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10u)));
    magnitude /= 10u;
  }
  return negative ? "-" + digits : digits;
}

}  // namespace rocke::util
