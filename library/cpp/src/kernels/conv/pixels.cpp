// Python twin: rocke_library/kernels/conv/pixels.py
#include "rocke_library/kernels/conv/pixels.hpp"

namespace rocke::library::kernels::conv {

using helpers::add_i32;
using helpers::divu_i32;
using helpers::mul_i32;
using ir::Builder;
using ir::Value;

Value* out_extent(Builder& b, Value* size, std::int64_t filter_size, std::int64_t stride, std::int64_t pad,
                  std::int64_t dil) {
  std::int64_t shift = 2 * pad - extent(filter_size, dil);
  if (stride == 1) return add_i32(b, size, shift + 1);
  return add_i32(b, divu_i32(b, add_i32(b, size, shift), stride), 1);
}

Value* inside(Builder& b, const Pixel& pix, Value* hi, Value* wi, Value* h, Value* w) {
  Value* rows = b.cmpi("ult", hi, h);
  Value* cols = b.cmpi("ult", wi, w);
  return b.and_(pix.ok, b.and_(rows, cols), "tap_ok");
}

}  // namespace rocke::library::kernels::conv
