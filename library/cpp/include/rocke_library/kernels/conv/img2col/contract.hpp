// rocKE library: the launch contract of img2col -- one thread per (pixel, channel vector), grid (.., groups).
// Python twin: rocke_library/kernels/conv/img2col/contract.py
#pragma once

#include "rocke/families/launch.hpp"
#include "rocke_library/kernels/conv/img2col/spec.hpp"

namespace rocke::library::kernels::conv::img2col {

// Contract for an N x H x W x C input with g groups: args (input, col, n, h, w, c, g).
families::LaunchContract launch(const Img2colSpec& spec, const families::ProblemSizes& problem);

}  // namespace rocke::library::kernels::conv::img2col
