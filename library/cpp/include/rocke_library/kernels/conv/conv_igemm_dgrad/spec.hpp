// rocKE library: the conv_igemm_dgrad spec -- the data gradient of a convolution as an implicit
// GEMM on the matrix cores, dx (NHWC) from dy (NHWK) and w (KYXC), f32 accumulation.
// Python twin: rocke_library/kernels/conv/conv_igemm_dgrad/spec.py
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/arch/mma.hpp"
#include "rocke/families/spec.hpp"

namespace rocke::library::kernels::conv::conv_igemm_dgrad {

// dx[n, h, w, g*C/G + c] = sum over taps (ty, tx) and the group's output channels k of
// dy[n, oh, ow, g*K/G + k] * w[g*K/G + k, ty, tx, c], where oh * stride_h = h + pad_h - ty * dil_h
// and ow * stride_w = w + pad_w - tx * dil_w (taps whose division is not exact, or lands outside
// dy, contribute nothing). GEMM view per group: M = N*H*W, N = C/G, K = Y*X*K/G.
struct ConvIgemmDgradSpec : families::Spec<ConvIgemmDgradSpec> {
  static constexpr std::string_view kFamily = "conv_igemm_dgrad";

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
  std::int64_t stride_h = 0;
  std::int64_t stride_w = 0;
  std::int64_t vec = 0;
  std::int64_t wm = 0;
  std::int64_t wn = 0;

  static const std::vector<families::Field<ConvIgemmDgradSpec>>& fields();
  void check() const;
  // The MMA catalog op each wave repeats.
  const arch::MmaOp& atom() const;
  // Threads per workgroup: wm * wn waves of the atom's wave size.
  std::int64_t threads() const;
  std::int64_t taps() const { return filter_y * filter_x; }
};

}  // namespace rocke::library::kernels::conv::conv_igemm_dgrad
