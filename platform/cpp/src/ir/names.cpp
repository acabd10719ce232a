// Python twin: rocke/ir/names.py
#include "rocke/ir/names.hpp"

namespace rocke::ir {

namespace {

bool is_first(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_rest(char c) { return is_first(c) || (c >= '0' && c <= '9'); }

}  // namespace

bool is_hint(std::string_view name) {
  if (name.empty() || !is_first(name[0])) return false;
  for (char c : name.substr(1)) {
    if (!is_rest(c) && c != '.') return false;
  }
  return true;
}

bool is_kernel_name(std::string_view name) {
  if (name.empty() || !is_first(name[0])) return false;
  for (char c : name.substr(1)) {
    if (!is_rest(c)) return false;
  }
  return true;
}

}  // namespace rocke::ir
