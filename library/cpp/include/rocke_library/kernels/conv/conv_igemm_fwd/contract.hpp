// rocKE library: the launch contract of conv_igemm_fwd.
// Python twin: rocke_library/kernels/conv/conv_igemm_fwd/contract.py
#pragma once

#include "rocke/families/launch.hpp"
#include "rocke_library/kernels/conv/conv_igemm_fwd/spec.hpp"

namespace rocke::library::kernels::conv::conv_igemm_fwd {

families::LaunchContract launch(const ConvIgemmFwdSpec& spec, const families::ProblemSizes& problem);

}  // namespace rocke::library::kernels::conv::conv_igemm_fwd
