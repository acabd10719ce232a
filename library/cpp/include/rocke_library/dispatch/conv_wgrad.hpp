// rocKE library: the convolution weight-gradient problem and its split-K choice (conv_igemm_wgrad's
// hook takes it from problem.split_k(target)).
// Python twin: rocke_library/dispatch/conv_wgrad.py
#pragma once

#include "rocke/arch/target.hpp"
#include "rocke_library/dispatch/conv_fwd.hpp"

namespace rocke::library::dispatch {

inline constexpr std::int64_t kSplitTile = 64;
inline constexpr std::int64_t kSplitWaves = 2;
inline constexpr std::int64_t kSplitMinReduction = 256;
inline constexpr std::int64_t kMaxSplitK = 64;

struct ConvWgradProblem : ConvProblem<ConvWgradProblem> {
  static constexpr std::string_view kKind = "conv_wgrad";
  static constexpr std::string_view kFamily = "conv_wgrad problem";
  void check() const {
    check_conv();
    check_no_epilogue();
  }
  // Nothing to write: dw[K, Y, X, C/g] is empty.
  bool dead() const { return static_cast<__int128>(k) * taps() * (c / g) == 0; }
  // The split-K factor on target (split_k below).
  std::int64_t split_k(const arch::ArchTarget& target) const;
};

// The split-K factor of a wgrad problem on target (Python docstring).
std::int64_t split_k(const ConvWgradProblem& problem, const arch::ArchTarget& target);

}  // namespace rocke::library::dispatch
