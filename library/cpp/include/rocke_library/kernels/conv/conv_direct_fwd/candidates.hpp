// rocKE library: the dispatch hook of conv_direct_fwd -- its candidates for a conv_fwd problem, in
// order (the kind's tiles, large first; vector width from the channel run and the alignment).
// Python twin: rocke_library/kernels/conv/conv_direct_fwd/candidates.py
#pragma once

#include <vector>

#include "rocke/arch/target.hpp"
#include "rocke_library/dispatch/conv_fwd.hpp"
#include "rocke_library/kernels/candidate.hpp"

namespace rocke::library::kernels::conv::conv_direct_fwd {

std::vector<Candidate> candidates(const dispatch::ConvFields& problem, const arch::ArchTarget& target);

}  // namespace rocke::library::kernels::conv::conv_direct_fwd
