// Python twin: rocke/ir/names.py
#include "rocke/ir/names.hpp"

#include <array>
#include <cstdint>

namespace rocke::ir {

namespace {

// Character classes by byte (one load per character): bit 1 a first character ([A-Za-z_]), bit 2
// a later one of a kernel name ([A-Za-z0-9_]), bit 4 a later one of a hint (those and '.').
constexpr std::uint8_t kFirst = 1, kRest = 2, kHintRest = 4;
constexpr std::array<std::uint8_t, 256> kClasses = [] {
  std::array<std::uint8_t, 256> table{};
  for (int ch = 0; ch < 256; ++ch) {
    bool first = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '_';
    bool rest = first || (ch >= '0' && ch <= '9');
    table[ch] = static_cast<std::uint8_t>((first ? kFirst : 0) | (rest ? kRest | kHintRest : 0) |
                                          (ch == '.' ? kHintRest : 0));
  }
  return table;
}();

// name is a first character of class kFirst, then characters of class `rest`.
bool is_word(std::string_view name, std::uint8_t rest) {
  if (name.empty() || (kClasses[static_cast<unsigned char>(name[0])] & kFirst) == 0) return false;
  for (std::size_t i = 1; i < name.size(); ++i) {
    if ((kClasses[static_cast<unsigned char>(name[i])] & rest) == 0) return false;
  }
  return true;
}

}  // namespace

bool is_hint(std::string_view name) { return is_word(name, kHintRest); }

bool is_kernel_name(std::string_view name) { return is_word(name, kRest); }

}  // namespace rocke::ir
