// rocKE library: shared pieces of the implicit-GEMM conv specs -- the dtype, vector and tile rules:
// f16/bf16 inputs, the MMA atom and the tile-GEMM main loop's tile (families::check_tile_gemm) --
// and the host-side sizes of one problem with their launch checks (conv_problem).
// Python twin: rocke_library/kernels/conv/igemm.py
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rocke/arch/mma.hpp"
#include "rocke/families/launch.hpp"
#include "rocke/families/spec.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/conv/geometry.hpp"

namespace rocke::library::kernels::conv {

inline constexpr std::array<std::string_view, 2> kInputDtypes = {"f16", "bf16"};

// The rules, in order: dtype, vec (families::check_vec), the atom (check_mma_atom), the tile of the
// main loop (check_tile_gemm); returns the atom. S is a conv spec with the tile fields and Spec::fail.
template <class S>
const arch::MmaOp& check_gemm_tile(const S& spec) {
  if (spec.dtype != kInputDtypes[0] && spec.dtype != kInputDtypes[1]) {
    spec.fail("dtype", util::cat("must be one of ", kInputDtypes[0], ", ", kInputDtypes[1]));
  }
  families::check_vec(spec);
  const arch::MmaOp& op = families::check_mma_atom(spec, "dtype", spec.dtype);
  families::check_tile_gemm(spec, op);
  return op;
}

}  // namespace rocke::library::kernels::conv

// ---- host-side sizes of one NHWC x KYXC problem (Python: igemm.ConvProblem, conv_problem) ----

namespace rocke::library::kernels::conv {

inline const std::vector<std::string_view> kProblemKeys = {"n", "h", "w", "c", "k", "g"};

// x is n x h x w x c, w is k x Y x X x c/g, y (and dy) n x ho x wo x k, g groups.
struct ConvProblem {
  std::int64_t n = 0, h = 0, w = 0, c = 0, k = 0, g = 0, ho = 0, wo = 0;
  std::int64_t cg() const { return c / g; }
  std::int64_t kg() const { return k / g; }
  // The problem keys and values (LaunchContract.problem).
  families::ProblemSizes sizes() const { return {{"c", c}, {"g", g}, {"h", h}, {"k", k}, {"n", n}, {"w", w}}; }
  std::int64_t get(std::string_view key) const {
    return key == "n" ? n : key == "h" ? h : key == "w" ? w : key == "c" ? c : key == "k" ? k : g;
  }
};

// The sizes of problem (exactly kProblemKeys), or LaunchError: c and k multiples of g, both per-group
// channel counts multiples of vec, and an input at least as large as the filter window.
template <class S>
ConvProblem conv_problem(std::string_view family, const S& spec, std::int64_t vec, const families::ProblemSizes& problem) {
  using util::cat;
  std::vector<std::int64_t> s = families::problem_sizes(family, problem, kProblemKeys);
  ConvProblem p{s[0], s[1], s[2], s[3], s[4], s[5], 0, 0};
  if (p.c % p.g != 0) {
    throw families::LaunchError(cat(family, ": c=", std::to_string(p.c), " is not a multiple of g=", std::to_string(p.g)));
  }
  if (p.k % p.g != 0) {
    throw families::LaunchError(cat(family, ": k=", std::to_string(p.k), " is not a multiple of g=", std::to_string(p.g)));
  }
  const std::pair<std::string_view, std::int64_t> per_group[] = {{"c/g", p.cg()}, {"k/g", p.kg()}};
  for (const auto& [name, size] : per_group) {
    if (size % vec != 0) {
      throw families::LaunchError(cat(family, ": ", name, "=", std::to_string(size), " is not a multiple of vec=",
                                      std::to_string(vec)));
    }
  }
  p.ho = output_size(p.h, spec.filter_y, spec.stride_h, spec.pad_h, spec.dil_h);
  p.wo = output_size(p.w, spec.filter_x, spec.stride_w, spec.pad_w, spec.dil_w);
  if (p.ho < 1 || p.wo < 1) {
    throw families::LaunchError(cat(family, ": a ", std::to_string(p.h), " x ", std::to_string(p.w), " input padded by ",
                                    std::to_string(spec.pad_h), ", ", std::to_string(spec.pad_w),
                                    " is smaller than the filter window"));
  }
  return p;
}

}  // namespace rocke::library::kernels::conv
