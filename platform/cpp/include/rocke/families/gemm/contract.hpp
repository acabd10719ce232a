// rocKE C++ engine: the launch contract of gemm -- one workgroup per bm x bn tile of C, grid (N tiles, M tiles).
// Python twin: rocke/families/gemm/contract.py
#pragma once

#include "rocke/families/gemm/spec.hpp"
#include "rocke/families/launch.hpp"

namespace rocke::families::gemm {

// Contract for C[m x n] = alpha * A[m x k] @ B[k x n] (+ bias[n]): args a, b, c, (bias), m, n, k, alpha.
LaunchContract launch(const GemmSpec& spec, const ProblemSizes& problem);

}  // namespace rocke::families::gemm
