// Python twin: rocke_library/dispatch/conv_wgrad.py
#include "rocke_library/dispatch/conv_wgrad.hpp"

#include <algorithm>

namespace rocke::library::dispatch {

namespace {

__int128 ceil_div(__int128 a, __int128 b) { return (a + b - 1) / b; }

// a * b saturated at 2^62: a tile count that large already means split_k = 1, as in Python.
__int128 saturated(__int128 a, __int128 b) {
  constexpr __int128 cap = static_cast<__int128>(1) << 62;
  return a > cap / b ? cap : std::min(a * b, cap);
}

}  // namespace

std::int64_t split_k(const ConvWgradProblem& problem, const arch::ArchTarget& target) {
  auto [ho, wo] = problem.output_hw();
  __int128 reduction = static_cast<__int128>(problem.n) * ho * wo;
  __int128 m = problem.k / problem.g, n = static_cast<__int128>(problem.taps()) * (problem.c / problem.g);
  __int128 tiles_m = ceil_div(m, kSplitTile), tiles_n = ceil_div(n, kSplitTile);
  __int128 tiles = tiles_m == 0 || tiles_n == 0 ? 1 : saturated(saturated(problem.g, tiles_m), tiles_n);
  __int128 split = std::min<__int128>(ceil_div(kSplitWaves * target.cu_count, tiles), reduction / kSplitMinReduction);
  return static_cast<std::int64_t>(std::max<__int128>(1, std::min<__int128>(split, kMaxSplitK)));
}

std::int64_t ConvWgradProblem::split_k(const arch::ArchTarget& target) const { return dispatch::split_k(*this, target); }

}  // namespace rocke::library::dispatch
