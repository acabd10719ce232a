// Python twin: rocke_library/kernels/conv/conv_igemm_wgrad/candidates.py
#include "rocke_library/kernels/conv/conv_igemm_wgrad/candidates.hpp"

#include <numeric>

#include "rocke_library/kernels/conv/conv_igemm_wgrad/spec.hpp"
#include "rocke_library/kernels/conv/igemm_candidates.hpp"

namespace rocke::library::kernels::conv::conv_igemm_wgrad {

namespace {

constexpr std::string_view kFamily = ConvIgemmWgradSpec::kFamily;

}  // namespace

std::vector<Candidate> candidates(const dispatch::ConvWgradProblem& problem, const arch::ArchTarget& target) {
  auto [reasons, details] = hook_reasons(problem, kFamily);
  add_empty(problem, "n", problem.n, reasons, details);
  std::int64_t split_k = problem.split_k(target);
  auto tiles = gemm_candidates(problem, target, reasons, details, std::gcd(problem.c / problem.g, problem.k / problem.g),
                               {{"convert", false}, {"split_k", split_k}},
                               GemmGrid{problem.k / problem.g, problem.taps() * (problem.c / problem.g),
                                        problem.g * split_k});
  if (!reasons.empty()) return rejected(kFamily, reasons, details);
  std::vector<Candidate> out;
  for (const auto& [fields, sizes] : tiles) {
    Candidate main{std::string(kFamily), spec_kv(fields), sizes, {}, ""};
    if (split_k > 1) {
      families::KvValues convert = fields;
      convert["convert"] = true;
      main.then.push_back(Candidate{std::string(kFamily), spec_kv(convert), sizes, {}, ""});
    }
    out.push_back(std::move(main));
  }
  return out;
}

}  // namespace rocke::library::kernels::conv::conv_igemm_wgrad
