// rocKE library: the convolution data-gradient problem (conv_igemm_dgrad serves it).
// Python twin: rocke_library/dispatch/conv_dgrad.py
#pragma once

#include "rocke_library/dispatch/conv_fwd.hpp"

namespace rocke::library::dispatch {

struct ConvDgradProblem : ConvProblem<ConvDgradProblem> {
  static constexpr std::string_view kKind = "conv_dgrad";
  static constexpr std::string_view kFamily = "conv_dgrad problem";
  void check() const {
    check_conv();
    check_no_epilogue();
  }
  // Nothing to write: dx[N, H, W, C] is empty.
  bool dead() const { return static_cast<__int128>(n) * h * w * c == 0; }
};

}  // namespace rocke::library::dispatch
