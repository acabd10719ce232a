// rocKE library: the launch contract of conv_igemm_dgrad.
// Python twin: rocke_library/kernels/conv/conv_igemm_dgrad/contract.py
#pragma once

#include "rocke/families/launch.hpp"
#include "rocke_library/kernels/conv/conv_igemm_dgrad/spec.hpp"

namespace rocke::library::kernels::conv::conv_igemm_dgrad {

families::LaunchContract launch(const ConvIgemmDgradSpec& spec, const families::ProblemSizes& problem);

}  // namespace rocke::library::kernels::conv::conv_igemm_dgrad
