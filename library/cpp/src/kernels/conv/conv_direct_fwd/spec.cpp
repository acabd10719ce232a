// Python twin: rocke_library/kernels/conv/conv_direct_fwd/spec.py
#include "rocke_library/kernels/conv/conv_direct_fwd/spec.hpp"

#include <algorithm>

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/conv/geometry.hpp"

namespace rocke::library::kernels::conv::conv_direct_fwd {

using families::Field;
using S = ConvDirectFwdSpec;

const std::vector<Field<S>>& S::fields() {
  static const std::vector<Field<S>> list = {
      {"bias", &S::bias},         {"depthwise", &S::depthwise}, {"dil_h", &S::dil_h},
      {"dil_w", &S::dil_w},       {"dtype", &S::dtype},         {"filter_x", &S::filter_x},
      {"filter_y", &S::filter_y}, {"pad_h", &S::pad_h},         {"pad_w", &S::pad_w},
      {"relu", &S::relu},         {"stride_h", &S::stride_h},   {"stride_w", &S::stride_w},
      {"thread_k", &S::thread_k}, {"thread_p", &S::thread_p},   {"tile_k", &S::tile_k},
      {"tile_p", &S::tile_p},     {"vec", &S::vec},
  };
  return list;
}

void S::check() const {
  using std::to_string;
  using util::cat;
  families::check_dtype(*this);
  families::check_vec(*this);
  if (std::find(kThreadKChoices.begin(), kThreadKChoices.end(), thread_k) == kThreadKChoices.end()) {
    fail("thread_k", "must be 1, 2, 4 or 8");
  }
  if (thread_p < 1 || thread_p > kMaxThreadP) fail("thread_p", cat("must be in 1..", to_string(kMaxThreadP)));
  if (thread_p * thread_k > kMaxAccumulators) {
    fail("thread_p", cat("thread_p * thread_k = ", to_string(thread_p * thread_k),
                         " accumulators exceed the limit of ", to_string(kMaxAccumulators)));
  }
  if (depthwise && thread_k % vec != 0) {
    fail("vec", cat("must divide thread_k=", to_string(thread_k), " (depthwise vectors run along the channels)"));
  }
  if (tile_k < thread_k || tile_k > kMaxTileK || tile_k % thread_k != 0) {
    fail("tile_k", cat("must be a multiple of thread_k=", to_string(thread_k), " in ", to_string(thread_k), "..",
                       to_string(kMaxTileK)));
  }
  if (tile_p < thread_p || tile_p > kMaxTileP || tile_p % thread_p != 0) {
    fail("tile_p", cat("must be a multiple of thread_p=", to_string(thread_p), " in ", to_string(thread_p), "..",
                       to_string(kMaxTileP)));
  }
  std::int64_t count = threads();
  families::check_threads(*this, "tile_p", count,
                          cat("(tile_p / thread_p) * (tile_k / thread_k) = ", to_string(count), " threads; "));
  check_window(*this);
}

}  // namespace rocke::library::kernels::conv::conv_direct_fwd
