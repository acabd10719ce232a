// Python twin: rocke_library/kernels/conv/conv_direct_fwd/candidates.py
#include "rocke_library/kernels/conv/conv_direct_fwd/candidates.hpp"

#include <algorithm>
#include <array>

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/conv/conv_direct_fwd/spec.hpp"

namespace rocke::library::kernels::conv::conv_direct_fwd {

namespace {

constexpr std::string_view kFamily = ConvDirectFwdSpec::kFamily;
// (thread_k, thread_p, tile_k, tile_p), large first: [0] grouped (256 threads), [1] depthwise (64).
constexpr std::array<std::array<std::array<std::int64_t, 4>, 2>, 2> kTiles = {
    {{{{4, 4, 64, 64}, {2, 2, 32, 32}}}, {{{8, 2, 64, 16}, {4, 2, 32, 16}}}}};

}  // namespace

std::vector<Candidate> candidates(const dispatch::ConvFields& problem, const arch::ArchTarget& /*target*/) {
  using helpers::kFloatDtypes;
  std::vector<std::string> reasons, details;
  if (std::find(kFloatDtypes.begin(), kFloatDtypes.end(), problem.dtype) == kFloatDtypes.end()) {
    reasons.emplace_back("DTYPE_UNSUPPORTED");
    details.push_back(util::cat("dtype=", problem.dtype, "; ", kFamily, " has ", util::join(kFloatDtypes, ", ")));
  }
  if (problem.layout != "nhwc") {
    reasons.emplace_back("LAYOUT_UNSUPPORTED");
    details.push_back(util::cat("layout=", problem.layout, "; ", kFamily, " has nhwc"));
  }
  if (problem.c == 0) {
    reasons.emplace_back("EMPTY");
    details.emplace_back("c=0");
  }
  if (!reasons.empty()) return {Candidate{std::string(kFamily), "", {}, reasons, util::join(details, "; ")}};
  bool depthwise = problem.g > 1 && problem.g == problem.c && problem.c == problem.k;
  std::int64_t run = depthwise ? problem.c : problem.c / problem.g;
  std::int64_t vec = vector_width(helpers::elem_bytes(problem.dtype), run, problem.align);
  families::ProblemSizes sizes = {{"n", problem.n}, {"h", problem.h}, {"w", problem.w}, {"c", problem.c}};
  if (!depthwise) {
    sizes["k"] = problem.k;
    sizes["g"] = problem.g;
  }
  std::vector<Candidate> out;
  for (const auto& [thread_k, thread_p, tile_k, tile_p] : kTiles[depthwise ? 1 : 0]) {
    families::KvValues fields = {
        {"dil_h", problem.dil_h},       {"dil_w", problem.dil_w},       {"filter_x", problem.filter_x},
        {"filter_y", problem.filter_y}, {"pad_h", problem.pad_h},       {"pad_w", problem.pad_w},
        {"stride_h", problem.stride_h}, {"stride_w", problem.stride_w}, {"bias", problem.bias},
        {"depthwise", depthwise},       {"dtype", problem.dtype},       {"relu", problem.relu},
        {"thread_k", thread_k},         {"thread_p", thread_p},         {"tile_k", tile_k},
        {"tile_p", tile_p},             {"vec", depthwise ? std::min(vec, thread_k) : vec}};
    out.push_back(Candidate{std::string(kFamily), spec_kv(fields), sizes, {}, ""});
  }
  return out;
}

}  // namespace rocke::library::kernels::conv::conv_direct_fwd
