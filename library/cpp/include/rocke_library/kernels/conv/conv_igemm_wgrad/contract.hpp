// rocKE library: the launch contract of conv_igemm_wgrad.
// Python twin: rocke_library/kernels/conv/conv_igemm_wgrad/contract.py
#pragma once

#include "rocke/families/launch.hpp"
#include "rocke_library/kernels/conv/conv_igemm_wgrad/spec.hpp"

namespace rocke::library::kernels::conv::conv_igemm_wgrad {

families::LaunchContract launch(const ConvIgemmWgradSpec& spec, const families::ProblemSizes& problem);

}  // namespace rocke::library::kernels::conv::conv_igemm_wgrad
