// Python twin: rocke_library/kernels/conv/conv_igemm_fwd/candidates.py
#include "rocke_library/kernels/conv/conv_igemm_fwd/candidates.hpp"

#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/conv/conv_igemm_fwd/spec.hpp"
#include "rocke_library/kernels/conv/igemm_candidates.hpp"

namespace rocke::library::kernels::conv::conv_igemm_fwd {

namespace {

constexpr std::string_view kFamily = ConvIgemmFwdSpec::kFamily;

}  // namespace

std::vector<Candidate> candidates(const dispatch::ConvFwdProblem& problem, const arch::ArchTarget& target) {
  auto [reasons, details] = hook_reasons(problem, kFamily);
  if (problem.c == 0) {
    reasons.emplace_back("EMPTY");
    details.emplace_back("c=0");
  }
  if (problem.g > 1 && problem.g == problem.c && problem.c == problem.k) {
    reasons.emplace_back("SHAPE_DEFERRED");
    details.push_back(util::cat("g=c=k=", std::to_string(problem.g), " (depthwise): one output channel per group"));
  }
  auto [ho, wo] = problem.output_hw();
  auto tiles = gemm_candidates(problem, target, reasons, details, problem.c / problem.g,
                               {{"bias", problem.bias}, {"relu", problem.relu}},
                               GemmGrid{problem.n * ho * wo, problem.k / problem.g, problem.g});
  if (!reasons.empty()) return rejected(kFamily, reasons, details);
  std::vector<Candidate> out;
  for (const auto& [fields, sizes] : tiles) out.push_back(Candidate{std::string(kFamily), spec_kv(fields), sizes, {}, ""});
  return out;
}

}  // namespace rocke::library::kernels::conv::conv_igemm_fwd
