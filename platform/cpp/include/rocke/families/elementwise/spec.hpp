// rocKE C++ engine: the elementwise spec -- out = op(x[, y]) over n elements of one storage dtype,
// computed in f32.
// Python twin: rocke/families/elementwise/spec.py
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/families/spec.hpp"

namespace rocke::families::elementwise {

inline constexpr std::array<std::string_view, 4> kBinaryOps = {"add", "sub", "mul", "max"};
inline constexpr std::array<std::string_view, 3> kUnaryOps = {"relu", "silu", "gelu_tanh"};
inline constexpr std::array<std::string_view, 7> kOps = {"add", "sub", "mul", "max", "relu", "silu", "gelu_tanh"};

// block: threads per workgroup; dtype: storage of inputs and output; op: the operation;
// vec: consecutive elements per thread (one vector access per operand).
struct ElementwiseSpec : Spec<ElementwiseSpec> {
  static constexpr std::string_view kFamily = "elementwise";

  std::int64_t block = 0;
  std::string dtype;
  std::string op;
  std::int64_t vec = 0;

  static const std::vector<Field<ElementwiseSpec>>& fields();
  void check() const;
  // Input buffer names, in kernel argument order.
  std::vector<std::string> inputs() const;
};

}  // namespace rocke::families::elementwise
