// Python twin: rocke_library/kernels/conv/img2col/spec.py
#include "rocke_library/kernels/conv/img2col/spec.hpp"

#include <algorithm>

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/conv/geometry.hpp"

namespace rocke::library::conv::img2col {

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
  using helpers::FLOAT_DTYPES;
  using util::cat;
  if (std::find(FLOAT_DTYPES.begin(), FLOAT_DTYPES.end(), dtype) == FLOAT_DTYPES.end()) {
    fail("dtype", cat("must be one of ", util::join(FLOAT_DTYPES, ", ")));
  }
  if (std::find(VEC_WIDTHS.begin(), VEC_WIDTHS.end(), vec) == VEC_WIDTHS.end()) fail("vec", "must be 1, 2, 4 or 8");
  std::int64_t most = MAX_ACCESS_BYTES / helpers::elem_bytes(dtype);
  if (vec > most) {
    fail("vec", cat("one ", dtype, " access holds at most ", std::to_string(most), " elements (",
                    std::to_string(MAX_ACCESS_BYTES), " bytes)"));
  }
  if (block < BLOCK_STEP || block > MAX_BLOCK || block % BLOCK_STEP != 0) {
    fail("block", cat("must be a multiple of ", std::to_string(BLOCK_STEP), " in ", std::to_string(BLOCK_STEP), "..",
                      std::to_string(MAX_BLOCK)));
  }
  check_window(*this);
}

}  // namespace rocke::library::conv::img2col
