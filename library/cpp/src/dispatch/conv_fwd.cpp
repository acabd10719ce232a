// Python twin: rocke_library/dispatch/conv_fwd.py
#include "rocke_library/dispatch/conv_fwd.hpp"

namespace rocke::library::dispatch {

families::KvValues conv_defaults() {
  return {{"align", std::int64_t{16}}, {"bias", false},        {"dil_h", std::int64_t{1}}, {"dil_w", std::int64_t{1}},
          {"g", std::int64_t{1}},      {"layout", std::string("nhwc")}, {"pad_h", std::int64_t{0}},
          {"pad_w", std::int64_t{0}},  {"relu", false},        {"stride_h", std::int64_t{1}},
          {"stride_w", std::int64_t{1}}};
}

bool ConvFwdProblem::dead() const {
  auto [ho, wo] = output_hw();
  return static_cast<__int128>(n) * ho * wo * k == 0;
}

}  // namespace rocke::library::dispatch
