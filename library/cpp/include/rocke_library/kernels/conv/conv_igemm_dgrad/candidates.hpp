// rocKE library: the dispatch hook of conv_igemm_dgrad -- its candidates for a conv_dgrad problem, in order
// (the shared implicit-GEMM rules of igemm_candidates.hpp and the family's own).
// Python twin: rocke_library/kernels/conv/conv_igemm_dgrad/candidates.py
#pragma once

#include <vector>

#include "rocke/arch/target.hpp"
#include "rocke_library/dispatch/conv_dgrad.hpp"
#include "rocke_library/kernels/candidate.hpp"

namespace rocke::library::kernels::conv::conv_igemm_dgrad {

std::vector<Candidate> candidates(const dispatch::ConvDgradProblem& problem, const arch::ArchTarget& target);

}  // namespace rocke::library::kernels::conv::conv_igemm_dgrad
