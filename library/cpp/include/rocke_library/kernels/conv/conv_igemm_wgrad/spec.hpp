// rocKE library: the conv_igemm_wgrad spec -- the weight gradient of a convolution as an implicit
// GEMM on the matrix cores, dw (KYXC) from x (NHWC) and dy (NHWK), f32 accumulation, K split across
// workgroups.
// Python twin: rocke_library/kernels/conv/conv_igemm_wgrad/spec.py
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/arch/mma.hpp"
#include "rocke/families/spec.hpp"

namespace rocke::library::kernels::conv::conv_igemm_wgrad {

inline constexpr std::int64_t kMaxSplitK = 64;

// dw[g*K/G + k, ty, tx, c] = sum over n, oh, ow of dy[n, oh, ow, g*K/G + k] *
// x[n, oh*stride_h - pad_h + ty*dil_h, ow*stride_w - pad_w + tx*dil_w, g*C/G + c] (zero outside x).
// GEMM view per group: M = K/G, N = Y*X*C/G, K = N*Ho*Wo. split_k workgroups share the K range of
// one output tile: split_k = 1 stores dw directly; split_k > 1 adds f32 partial sums into a
// zero-initialised f32 workspace with atomics, and the convert kernel (convert=1) turns it into dw.
struct ConvIgemmWgradSpec : families::Spec<ConvIgemmWgradSpec> {
  static constexpr std::string_view kFamily = "conv_igemm_wgrad";

  std::int64_t bk = 0;
  std::int64_t bm = 0;
  std::int64_t bn = 0;
  bool convert = false;
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
  std::int64_t split_k = 0;
  std::int64_t stride_h = 0;
  std::int64_t stride_w = 0;
  std::int64_t vec = 0;
  std::int64_t wm = 0;
  std::int64_t wn = 0;

  static const std::vector<families::Field<ConvIgemmWgradSpec>>& fields();
  void check() const;
  // The MMA catalog op each wave repeats.
  const arch::MmaOp& atom() const;
  // Threads per workgroup: wm * wn waves of the atom's wave size.
  std::int64_t threads() const;
  std::int64_t taps() const { return filter_y * filter_x; }
  // The main kernel adds into the f32 workspace (split_k > 1) instead of storing dw.
  bool atomic() const { return split_k > 1; }
};

}  // namespace rocke::library::kernels::conv::conv_igemm_wgrad
