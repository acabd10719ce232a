// ctest: util::write_int and append_int, the one spelling of str(int) that the printer, the lowerer
// and attribute texts share, against std::to_string over the digit-count boundaries, both signs
// and the int64 limits.
// Python twin: none (str(int)).
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
  return rocke_test::finish("rocke_strings_test");
}
