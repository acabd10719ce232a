// Python twin: rocke_library/kernels/conv/conv_igemm_wgrad/spec.py
#include "rocke_library/kernels/conv/conv_igemm_wgrad/spec.hpp"

#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/conv/igemm.hpp"
#include "rocke_library/kernels/conv/geometry.hpp"

namespace rocke::library::kernels::conv::conv_igemm_wgrad {

using families::Field;
using S = ConvIgemmWgradSpec;

const std::vector<Field<S>>& S::fields() {
  static const std::vector<Field<S>> list = {
      {"bk", &S::bk},           {"bm", &S::bm},             {"bn", &S::bn},
      {"convert", &S::convert}, {"dil_h", &S::dil_h},       {"dil_w", &S::dil_w},
      {"double_buffer", &S::double_buffer},                 {"dtype", &S::dtype},
      {"filter_x", &S::filter_x}, {"filter_y", &S::filter_y}, {"lds_pad", &S::lds_pad},
      {"op_id", &S::op_id},     {"pad_h", &S::pad_h},       {"pad_w", &S::pad_w},
      {"split_k", &S::split_k}, {"stride_h", &S::stride_h}, {"stride_w", &S::stride_w},
      {"vec", &S::vec},         {"wm", &S::wm},             {"wn", &S::wn},
  };
  return list;
}

void S::check() const {
  using std::to_string;
  using util::cat;
  check_gemm_tile(*this);
  check_window(*this);
  if (split_k < 1 || split_k > kMaxSplitK) fail("split_k", cat("must be in 1..", to_string(kMaxSplitK)));
  if (convert && split_k == 1) {
    fail("convert", "needs split_k > 1 (with split_k = 1 the main kernel stores dw itself)");
  }
}

const arch::MmaOp& S::atom() const { return arch::mma_op(op_id); }

std::int64_t S::threads() const { return wm * wn * atom().wave_size; }

}  // namespace rocke::library::kernels::conv::conv_igemm_wgrad
