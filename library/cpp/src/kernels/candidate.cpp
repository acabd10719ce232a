// Python twin: rocke_library/kernels/candidate.py
#include "rocke_library/kernels/candidate.hpp"

namespace rocke::library::kernels {

std::int64_t vector_width(std::int64_t esize, std::int64_t run, std::int64_t align) {
  for (std::int64_t width : {8, 4, 2, 1}) {
    if (width * esize <= 16 && run % width == 0 && align % (width * esize) == 0) return width;
  }
  return 1;
}

std::string spec_kv(const families::KvValues& fields) {
  std::string out;
  for (const auto& [key, value] : fields) {
    if (!out.empty()) out += ' ';
    out += key + "=" + families::format_value(value);
  }
  return out;
}

}  // namespace rocke::library::kernels
