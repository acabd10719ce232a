// Python twin: rocke_library/kernels/conv/conv_igemm_dgrad/candidates.py
#include "rocke_library/kernels/conv/conv_igemm_dgrad/candidates.hpp"

#include <numeric>

#include "rocke_library/kernels/conv/conv_igemm_dgrad/spec.hpp"
#include "rocke_library/kernels/conv/igemm_candidates.hpp"

namespace rocke::library::kernels::conv::conv_igemm_dgrad {

namespace {

constexpr std::string_view kFamily = ConvIgemmDgradSpec::kFamily;

}  // namespace

std::vector<Candidate> candidates(const dispatch::ConvDgradProblem& problem, const arch::ArchTarget& target) {
  auto [reasons, details] = hook_reasons(problem, kFamily);
  add_empty(problem, "k", problem.k, reasons, details);
  auto tiles = gemm_candidates(problem, target, reasons, details, std::gcd(problem.c / problem.g, problem.k / problem.g),
                               {}, GemmGrid{problem.n * problem.h * problem.w, problem.c / problem.g, problem.g});
  if (!reasons.empty()) return rejected(kFamily, reasons, details);
  std::vector<Candidate> out;
  for (const auto& [fields, sizes] : tiles) out.push_back(Candidate{std::string(kFamily), spec_kv(fields), sizes, {}, ""});
  return out;
}

}  // namespace rocke::library::kernels::conv::conv_igemm_dgrad
