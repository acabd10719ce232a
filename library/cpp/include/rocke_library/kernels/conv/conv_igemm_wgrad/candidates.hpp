// rocKE library: the dispatch hook of conv_igemm_wgrad -- its candidates for a conv_wgrad problem, in order
// (the shared implicit-GEMM rules of igemm_candidates.hpp and the family's own).
// Python twin: rocke_library/kernels/conv/conv_igemm_wgrad/candidates.py
#pragma once

#include <vector>

#include "rocke/arch/target.hpp"
#include "rocke_library/dispatch/conv_wgrad.hpp"
#include "rocke_library/kernels/candidate.hpp"

namespace rocke::library::kernels::conv::conv_igemm_wgrad {

std::vector<Candidate> candidates(const dispatch::ConvWgradProblem& problem, const arch::ArchTarget& target);

}  // namespace rocke::library::kernels::conv::conv_igemm_wgrad
