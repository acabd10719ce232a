// rocKE library: the conv_direct_fwd spec -- direct forward convolution, NHWC x KYXC -> NHWK, f32
// accumulation.
// Python twin: rocke_library/kernels/conv/conv_direct_fwd/spec.py
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/families/spec.hpp"

namespace rocke::library::kernels::conv::conv_direct_fwd {

inline constexpr std::array<std::int64_t, 4> kThreadKChoices = {1, 2, 4, 8};
inline constexpr std::int64_t kMaxThreadP = 16;
inline constexpr std::int64_t kMaxAccumulators = 64;  // f32 accumulators per thread (registers)
inline constexpr std::int64_t kMaxTileK = 256;
inline constexpr std::int64_t kMaxTileP = 1024;

// y[n, oh, ow, k] = act(bias[k] + sum over taps and the group's channels of x * w). A workgroup
// computes tile_p output pixels x tile_k output channels of one group; each thread thread_p pixels
// (strided by tile_p / thread_p) x thread_k consecutive channels. vec: channels per vector access
// (along the reduction when grouped, along the thread's channels when depthwise).
struct ConvDirectFwdSpec : families::Spec<ConvDirectFwdSpec> {
  static constexpr std::string_view kFamily = "conv_direct_fwd";

  bool bias = false;
  bool depthwise = false;
  std::int64_t dil_h = 0;
  std::int64_t dil_w = 0;
  std::string dtype;
  std::int64_t filter_x = 0;
  std::int64_t filter_y = 0;
  std::int64_t pad_h = 0;
  std::int64_t pad_w = 0;
  bool relu = false;
  std::int64_t stride_h = 0;
  std::int64_t stride_w = 0;
  std::int64_t thread_k = 0;
  std::int64_t thread_p = 0;
  std::int64_t tile_k = 0;
  std::int64_t tile_p = 0;
  std::int64_t vec = 0;

  static const std::vector<families::Field<ConvDirectFwdSpec>>& fields();
  void check() const;
  // Threads along the channels of the tile.
  std::int64_t k_threads() const { return tile_k / thread_k; }
  // Threads along the pixels of the tile.
  std::int64_t p_threads() const { return tile_p / thread_p; }
  std::int64_t threads() const { return p_threads() * k_threads(); }
  std::int64_t taps() const { return filter_y * filter_x; }
};

}  // namespace rocke::library::kernels::conv::conv_direct_fwd
