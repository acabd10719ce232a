// rocKE library: the conv_igemm_fwd spec -- implicit-GEMM forward convolution on the matrix cores,
// NHWC x KYXC -> NHWK, f16/bf16 storage, f32 accumulation.
// Python twin: rocke_library/kernels/conv/conv_igemm_fwd/spec.py
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/arch/mma.hpp"
#include "rocke/families/spec.hpp"

namespace rocke::library::kernels::conv::conv_igemm_fwd {

inline constexpr std::array<std::string_view, 2> INPUT_DTYPES = {"f16", "bf16"};

// y[n, oh, ow, k] = act(bias[k] + sum over taps and the group's channels of x * w), as one GEMM per
// group: M = N * Ho * Wo, N = K / G, Kdim = Y * X * C / G (tap-major, channel-minor). The tile
// fields are those of the tile-GEMM main loop (rocke/helpers/tile_gemm.hpp); vec: the widest
// input-channel vector one copy access of x reads. A 1x1 window of stride 1 without padding takes
// the fast path (x is the A matrix, no tap arithmetic).
struct ConvIgemmFwdSpec : families::Spec<ConvIgemmFwdSpec> {
  static constexpr std::string_view FAMILY = "conv_igemm_fwd";

  bool bias = false;
  std::int64_t bk = 0;
  std::int64_t bm = 0;
  std::int64_t bn = 0;
  std::int64_t dil_h = 0;
  std::int64_t dil_w = 0;
  bool double_buffer = false;
  std::string dtype;
  std::int64_t filter_x = 0;
  std::int64_t filter_y = 0;
  std::int64_t lds_pad = 0;
  std::string op_id;
  std::int64_t pad_h = 0;
  std::int64_t pad_w = 0;
  bool relu = false;
  std::int64_t stride_h = 0;
  std::int64_t stride_w = 0;
  std::int64_t vec = 0;
  std::int64_t wm = 0;
  std::int64_t wn = 0;

  static const std::vector<families::Field<ConvIgemmFwdSpec>>& fields();
  void check() const;
  // The MMA catalog op each wave repeats.
  const arch::MmaOp& atom() const;
  // Threads per workgroup: wm * wn waves of the atom's wave size.
  std::int64_t threads() const;
  std::int64_t taps() const { return filter_y * filter_x; }
  // The fast path: output pixel m reads input pixel m (1x1 window, stride 1, no padding).
  bool pointwise() const {
    return filter_y == 1 && filter_x == 1 && stride_h == 1 && stride_w == 1 && pad_h == 0 && pad_w == 0;
  }
};

}  // namespace rocke::library::kernels::conv::conv_igemm_fwd
