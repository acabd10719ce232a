// rocKE C++ engine: the launch contract of elementwise -- one thread per vec elements, 1D grid.
// Python twin: rocke/families/elementwise/contract.py
#pragma once

#include "rocke/families/elementwise/spec.hpp"
#include "rocke/families/launch.hpp"

namespace rocke::families::elementwise {

// Contract for n elements: args (inputs..., out, n), grid ceil(n / (block * vec)).
LaunchContract launch(const ElementwiseSpec& spec, const ProblemSizes& problem);

}  // namespace rocke::families::elementwise
