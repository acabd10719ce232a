// rocKE library: convolution geometry shared by the conv families -- the spec rules of the filter
// window and the host-side output size.
// Python twin: rocke_library/kernels/conv/geometry.py
//
// A spec fixes the window at compile time -- filter_y x filter_x taps, stride_h/stride_w,
// pad_h/pad_w (the same padding before and after each spatial dimension) and dil_h/dil_w -- so tap
// offsets, strides and dilations are constants in the kernel and the tap loops have known trip
// counts. Problem sizes (N, H, W, C, K, groups) stay kernel arguments.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "rocke/util/strings.hpp"

namespace rocke::library::kernels::conv {

inline constexpr std::int64_t kMaxFilter = 16;  // per spatial dimension
inline constexpr std::int64_t kMaxTaps = 64;    // filter_y * filter_x
inline constexpr std::int64_t kMaxStride = 8;
inline constexpr std::int64_t kMaxDilation = 8;

// The window rules, in order: filter sizes, tap count, strides, dilations, paddings. S is a conv
// spec with the window fields and Spec::fail.
template <class S>
void check_window(const S& spec) {
  using util::cat;
  const std::pair<std::string_view, std::int64_t> filters[] = {{"filter_y", spec.filter_y}, {"filter_x", spec.filter_x}};
  for (const auto& [field, value] : filters) {
    if (value < 1 || value > kMaxFilter) spec.fail(field, cat("must be in 1..", std::to_string(kMaxFilter)));
  }
  std::int64_t taps = spec.filter_y * spec.filter_x;
  if (taps > kMaxTaps) {
    spec.fail("filter_x", cat("filter_y * filter_x = ", std::to_string(taps), " taps exceed the limit of ",
                              std::to_string(kMaxTaps)));
  }
  const std::pair<std::string_view, std::int64_t> strides[] = {{"stride_h", spec.stride_h}, {"stride_w", spec.stride_w}};
  for (const auto& [field, value] : strides) {
    if (value < 1 || value > kMaxStride) spec.fail(field, cat("must be in 1..", std::to_string(kMaxStride)));
  }
  const std::pair<std::string_view, std::int64_t> dilations[] = {{"dil_h", spec.dil_h}, {"dil_w", spec.dil_w}};
  for (const auto& [field, value] : dilations) {
    if (value < 1 || value > kMaxDilation) spec.fail(field, cat("must be in 1..", std::to_string(kMaxDilation)));
  }
  struct Pad {
    std::string_view field, dil, size;
    std::int64_t value, dil_value, size_value;
  };
  const Pad pads[] = {{"pad_h", "dil_h", "filter_y", spec.pad_h, spec.dil_h, spec.filter_y},
                      {"pad_w", "dil_w", "filter_x", spec.pad_w, spec.dil_w, spec.filter_x}};
  for (const Pad& pad : pads) {
    std::int64_t most = pad.dil_value * (pad.size_value - 1);
    if (pad.value < 0 || pad.value > most) {
      spec.fail(pad.field, cat("must be in 0..", std::to_string(most), " (at most ", pad.dil, " * (", pad.size,
                               " - 1), so every output sees the input)"));
    }
  }
}

// Input rows (or columns) one output reads: the dilated filter extent.
inline std::int64_t extent(std::int64_t filter_size, std::int64_t dilation) { return dilation * (filter_size - 1) + 1; }

// Output rows (or columns) of a padded input of `size`; 0 when the window does not fit.
inline std::int64_t output_size(std::int64_t size, std::int64_t filter_size, std::int64_t stride, std::int64_t pad,
                                std::int64_t dilation) {
  std::int64_t span = size + 2 * pad - extent(filter_size, dilation);
  return span < 0 ? 0 : span / stride + 1;
}

}  // namespace rocke::library::kernels::conv
