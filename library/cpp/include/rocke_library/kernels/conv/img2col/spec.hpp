// rocKE library: the img2col spec -- an NHWC input unrolled into the column matrix of a convolution.
// Python twin: rocke_library/kernels/conv/img2col/spec.py
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/families/spec.hpp"

namespace rocke::library::kernels::conv::img2col {

// block: threads per workgroup; dtype: storage of input and columns; vec: channels per access
// (the problem's channels per group must be a multiple); the window: filter_y x filter_x taps,
// stride_h/stride_w, pad_h/pad_w (both sides), dil_h/dil_w.
struct Img2colSpec : families::Spec<Img2colSpec> {
  static constexpr std::string_view kFamily = "img2col";

  std::int64_t block = 0;
  std::int64_t dil_h = 0;
  std::int64_t dil_w = 0;
  std::string dtype;
  std::int64_t filter_x = 0;
  std::int64_t filter_y = 0;
  std::int64_t pad_h = 0;
  std::int64_t pad_w = 0;
  std::int64_t stride_h = 0;
  std::int64_t stride_w = 0;
  std::int64_t vec = 0;

  static const std::vector<families::Field<Img2colSpec>>& fields();
  void check() const;
  std::int64_t taps() const { return filter_y * filter_x; }
};

}  // namespace rocke::library::kernels::conv::img2col
