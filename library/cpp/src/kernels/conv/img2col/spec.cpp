// Python twin: rocke_library/kernels/conv/img2col/spec.py
#include "rocke_library/kernels/conv/img2col/spec.hpp"

#include <algorithm>

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/conv/geometry.hpp"

namespace rocke::library::kernels::conv::img2col {

using families::Field;

const std::vector<Field<Img2colSpec>>& Img2colSpec::fields() {
  static const std::vector<Field<Img2colSpec>> list = {
      {"block", &Img2colSpec::block},       {"dil_h", &Img2colSpec::dil_h},       {"dil_w", &Img2colSpec::dil_w},
      {"dtype", &Img2colSpec::dtype},       {"filter_x", &Img2colSpec::filter_x}, {"filter_y", &Img2colSpec::filter_y},
      {"pad_h", &Img2colSpec::pad_h},       {"pad_w", &Img2colSpec::pad_w},       {"stride_h", &Img2colSpec::stride_h},
      {"stride_w", &Img2colSpec::stride_w}, {"vec", &Img2colSpec::vec},
  };
  return list;
}

void Img2colSpec::check() const {
  families::check_dtype(*this);
  families::check_vec(*this);
  families::check_threads(*this, "block", block);
  check_window(*this);
}

}  // namespace rocke::library::kernels::conv::img2col
