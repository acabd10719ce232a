// rocKE library: device index math shared by the conv builders -- output extents and output pixel
// coordinates.
// Python twin: rocke_library/kernels/conv/pixels.py
//
// Output pixel m (0 <= m < N * Ho * Wo) is (img, oh, ow) in NHWC order; its window starts at input
// row oh * stride_h - pad_h and column ow * stride_w - pad_w (negative inside the top/left padding).
// Nothing here masks: the caller combines `ok` with the per-tap bounds and turns a failed check
// into the out-of-range buffer offset (a zero read, a dropped store).
#pragma once

#include <array>
#include <cstdint>
#include <utility>

#include "rocke/helpers/index.hpp"
#include "rocke/ir/builder.hpp"
#include "rocke_library/kernels/conv/geometry.hpp"

namespace rocke::library::kernels::conv {

// One output pixel of a thread.
struct Pixel {
  ir::Value* ok = nullptr;    // m < N * Ho * Wo
  ir::Value* row = nullptr;   // input row of tap (0, 0); may be negative
  ir::Value* col = nullptr;   // input column of tap (0, 0); may be negative
  ir::Value* base = nullptr;  // NHWC element index of (img, row, col, channel 0)
};

// (size + 2 pad - dilated extent) / stride + 1; the launch contract guarantees a span >= 0.
ir::Value* out_extent(ir::Builder& b, ir::Value* size, std::int64_t filter_size, std::int64_t stride,
                      std::int64_t pad, std::int64_t dil);

// Device (Ho, Wo) of an H x W input (S: a conv spec with the window fields).
template <class S>
std::pair<ir::Value*, ir::Value*> out_dims(ir::Builder& b, const S& spec, ir::Value* h, ir::Value* w) {
  ir::Value* ho = out_extent(b, h, spec.filter_y, spec.stride_h, spec.pad_h, spec.dil_h);
  ir::Value* wo = out_extent(b, w, spec.filter_x, spec.stride_w, spec.pad_w, spec.dil_w);
  return {ho, wo};
}

// Pixel m of `total`; dims = (Ho, Wo, H, W, C) as device values; channel0 is added to base.
template <class S>
Pixel pixel(ir::Builder& b, const S& spec, ir::Value* m, ir::Value* total, const std::array<ir::Value*, 5>& dims,
            ir::Value* channel0) {
  using helpers::add_i32;
  using helpers::mul_i32;
  auto [ho, wo, h, w, c] = dims;
  ir::Value* ok = b.cmpi("slt", m, total, "pix_ok");
  ir::Value* ow = b.remu(m, wo, "ow");
  ir::Value* rest = b.divu(m, wo);
  ir::Value* oh = b.remu(rest, ho, "oh");
  ir::Value* img = b.divu(rest, ho, "img");
  ir::Value* row = add_i32(b, mul_i32(b, oh, spec.stride_h), -spec.pad_h);
  ir::Value* col = add_i32(b, mul_i32(b, ow, spec.stride_w), -spec.pad_w);
  ir::Value* line = b.add(b.mul(img, h), row);
  ir::Value* spot = b.add(b.mul(line, w), col);
  ir::Value* base = b.add(b.mul(spot, c), channel0, "pix_base");
  return Pixel{ok, row, col, base};
}

// pix.ok and 0 <= hi < H and 0 <= wi < W (unsigned compares reject negatives).
ir::Value* inside(ir::Builder& b, const Pixel& pix, ir::Value* hi, ir::Value* wi, ir::Value* h, ir::Value* w);

}  // namespace rocke::library::kernels::conv
