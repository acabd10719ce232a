// Python twin: rocke_library/dispatch/problem.py
#include "rocke_library/dispatch/problem.hpp"

#include "rocke/errors.hpp"

namespace rocke::library::dispatch {

std::int64_t dtype_bytes(std::string_view dtype) {
  if (dtype == "f16" || dtype == "bf16") return 2;
  if (dtype == "f32") return 4;
  if (dtype == "f64") return 8;
  throw KeyError(util::cat("'", dtype, "'"));
}

const std::int64_t* given_int(const families::KvValues& given, std::string_view key) {
  auto it = given.find(key);
  if (it == given.end()) return nullptr;
  return std::get_if<std::int64_t>(&it->second);
}

}  // namespace rocke::library::dispatch
