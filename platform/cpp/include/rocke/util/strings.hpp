// rocKE C++ engine: small string helpers with Python's semantics.
// Python twins: str.join (", ".join(items)), str(int) and string concatenation.
#pragma once

#include <cstdint>
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

// Writes str(value) of an int64 backwards so that it ends at end (at most 20 characters before
// it) and returns where it begins.
inline char* put_int_before(char* end, std::int64_t value) {
  char* digits = end;
  // The magnitude as unsigned: -INT64_MIN does not fit in int64.
  std::uint64_t magnitude = value < 0 ? 0u - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
  do {
    *--digits = static_cast<char>('0' + magnitude % 10u);
    magnitude /= 10u;
  } while (magnitude != 0);
  if (value < 0) *--digits = '-';
  return digits;
}

// Appends str(value) of an int64 to out (no temporary string).
inline void append_int(std::string& out, std::int64_t value) {
  char buf[24];
  char* end = buf + sizeof buf;
  char* digits = put_int_before(end, value);
  out.append(digits, static_cast<std::size_t>(end - digits));
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
