// ctest: util::write_int and append_int, the one spelling of str(int) that the printer, the lowerer
// and attribute texts share, against std::to_string over the digit-count boundaries, both signs
// and the int64 limits; util::copy_text against a byte loop at every length to 40 and every offset
// in a word, with the bytes around the copy left alone; util::same_text against == at every length
// to 40.
// Python twin: none (str(int)).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "check.hpp"
#include "rocke/util/strings.hpp"

int main() {
  std::vector<std::int64_t> values{0, std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min()};
  std::int64_t power = 1;  // 10**0 .. 10**18: every digit count around its boundaries
  for (int exponent = 0; exponent <= 18; ++exponent, power = exponent <= 18 ? power * 10 : power) {
    for (std::int64_t near : {power - 1, power, power + 1, 2 * power, 9 * power - 7}) {
      values.push_back(near);
      values.push_back(-near);
    }
  }
  for (std::uint64_t x = 88172645463325252ull, i = 0; i < 2000; ++i) {  // xorshift: values of every length
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    values.push_back(static_cast<std::int64_t>(x >> (i % 64)));
  }
  for (std::int64_t value : values) {
    const std::string want = std::to_string(value);
    std::string got(1, 'x');
    rocke::util::append_int(got, value);
    rocke_test::check(got.size() == want.size() + 1 && got.compare(1, want.size(), want) == 0,
                      "append_int appends " + want);
    char buf[20];
    rocke_test::check_eq(std::string(buf, rocke::util::write_int(buf, value)), want, "write_int writes " + want);
  }
  char source[64];
  for (std::size_t i = 0; i < sizeof source; ++i) source[i] = static_cast<char>('A' + i % 53);
  for (std::size_t size = 0; size <= 40; ++size) {
    for (std::size_t offset = 0; offset < 8; ++offset) {
      char out[64];
      std::string(sizeof out, '.').copy(out, sizeof out);
      char* end = rocke::util::copy_text(out + offset, source + (7 - offset), size);
      std::string want(sizeof out, '.');
      for (std::size_t i = 0; i < size; ++i) want[offset + i] = source[7 - offset + i];
      const std::string what = "copy_text of " + std::to_string(size) + " bytes at offset " + std::to_string(offset);
      rocke_test::check(end == out + offset + size, what + " returns the end of the copy");
      rocke_test::check_eq(std::string(out, sizeof out), want, what);
    }
  }
  // same_text against == at every length to 40: equal texts, and texts differing in one byte at
  // each position (the inline compares load overlapping words, so every byte must count).
  for (std::size_t size = 0; size <= 40; ++size) {
    const std::string a(source, size);
    rocke_test::check(rocke::util::same_text(a, std::string(source, size)), "same_text of equal " + std::to_string(size));
    rocke_test::check(!rocke::util::same_text(a, std::string(source, size + 1)), "same_text of another size");
    for (std::size_t at = 0; at < size; ++at) {
      std::string b = a;
      b[at] = static_cast<char>(b[at] ^ 0x20);
      rocke_test::check(!rocke::util::same_text(a, b),
                        "same_text of " + std::to_string(size) + " bytes differing at " + std::to_string(at));
    }
  }
  return rocke_test::finish("rocke_strings_test");
}
