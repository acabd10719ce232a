// rocKE library: convolution problems (forward here; dgrad and wgrad reuse the fields): NHWC input,
// KYXC weights, NHWK output, g groups.
// Python twin: rocke_library/dispatch/conv_fwd.py
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rocke_library/dispatch/problem.hpp"
#include "rocke_library/kernels/conv/geometry.hpp"

namespace rocke::library::dispatch {

inline const std::vector<std::string_view> kLayouts = {"nhwc", "nchw"};

// The fields every convolution problem kind shares.
struct ConvFields {
  std::int64_t align = 0;
  bool bias = false;
  std::int64_t c = 0;
  std::int64_t dil_h = 0;
  std::int64_t dil_w = 0;
  std::string dtype;
  std::int64_t filter_x = 0;
  std::int64_t filter_y = 0;
  std::int64_t g = 0;
  std::int64_t h = 0;
  std::int64_t k = 0;
  std::string layout;
  std::int64_t n = 0;
  std::int64_t pad_h = 0;
  std::int64_t pad_w = 0;
  bool relu = false;
  std::int64_t stride_h = 0;
  std::int64_t stride_w = 0;
  std::int64_t w = 0;

  // (Ho, Wo): 0 where the padded input is smaller than the dilated filter.
  std::pair<std::int64_t, std::int64_t> output_hw() const {
    return {kernels::conv::output_size(h, filter_y, stride_h, pad_h, dil_h),
            kernels::conv::output_size(w, filter_x, stride_w, pad_w, dil_w)};
  }
  std::int64_t taps() const { return filter_y * filter_x; }
};

// Python: CONV_DEFAULTS.
families::KvValues conv_defaults();

// Python: ConvProblem -- the shared fields and rules.
template <class Derived>
struct ConvProblem : Problem<Derived>, ConvFields {
  static const std::vector<families::Field<Derived>>& fields() {
    using F = families::Field<Derived>;
    using I = std::int64_t Derived::*;
    using S = std::string Derived::*;
    using B = bool Derived::*;
    static const std::vector<F> list = {
        {"align", static_cast<I>(&ConvFields::align)},       {"bias", static_cast<B>(&ConvFields::bias)},
        {"c", static_cast<I>(&ConvFields::c)},               {"dil_h", static_cast<I>(&ConvFields::dil_h)},
        {"dil_w", static_cast<I>(&ConvFields::dil_w)},       {"dtype", static_cast<S>(&ConvFields::dtype)},
        {"filter_x", static_cast<I>(&ConvFields::filter_x)}, {"filter_y", static_cast<I>(&ConvFields::filter_y)},
        {"g", static_cast<I>(&ConvFields::g)},               {"h", static_cast<I>(&ConvFields::h)},
        {"k", static_cast<I>(&ConvFields::k)},               {"layout", static_cast<S>(&ConvFields::layout)},
        {"n", static_cast<I>(&ConvFields::n)},               {"pad_h", static_cast<I>(&ConvFields::pad_h)},
        {"pad_w", static_cast<I>(&ConvFields::pad_w)},       {"relu", static_cast<B>(&ConvFields::relu)},
        {"stride_h", static_cast<I>(&ConvFields::stride_h)}, {"stride_w", static_cast<I>(&ConvFields::stride_w)},
        {"w", static_cast<I>(&ConvFields::w)},
    };
    return list;
  }

  static families::KvValues defaults(const families::KvValues& /*given*/) { return conv_defaults(); }

  void check_conv() const {
    this->check_choice("dtype", dtype, {kProblemDtypes.begin(), kProblemDtypes.end()});
    this->check_choice("layout", layout, kLayouts);
    const std::pair<std::string_view, std::int64_t> sizes[] = {{"n", n}, {"h", h}, {"w", w}, {"c", c}, {"k", k}};
    for (const auto& [field, value] : sizes) this->check_range(field, value, 0);
    const std::pair<std::string_view, std::int64_t> positive[] = {
        {"g", g}, {"filter_y", filter_y}, {"filter_x", filter_x}, {"stride_h", stride_h},
        {"stride_w", stride_w}, {"dil_h", dil_h}, {"dil_w", dil_w}};
    for (const auto& [field, value] : positive) this->check_range(field, value, 1);
    this->check_range("pad_h", pad_h, 0);
    this->check_range("pad_w", pad_w, 0);
    if (c % g != 0) this->fail("c", util::cat("must be a multiple of g=", std::to_string(g)));
    if (k % g != 0) this->fail("k", util::cat("must be a multiple of g=", std::to_string(g)));
    this->check_align(align, dtype);
  }

  // Python: ConvDgradProblem / ConvWgradProblem.check -- a gradient has no epilogue.
  void check_no_epilogue() const {
    if (bias) this->fail("bias", "must be 0 (a gradient problem has no epilogue)");
    if (relu) this->fail("relu", "must be 0 (a gradient problem has no epilogue)");
  }
};

// y = conv(x, w) (+ bias) (relu).
struct ConvFwdProblem : ConvProblem<ConvFwdProblem> {
  static constexpr std::string_view kKind = "conv_fwd";
  static constexpr std::string_view kFamily = "conv_fwd problem";
  void check() const { check_conv(); }
  // Nothing to write: the output y[N, Ho, Wo, K] is empty.
  bool dead() const;
};

}  // namespace rocke::library::dispatch
