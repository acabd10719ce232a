// Python twin: rocke_library/kernels/attention/common/strided.py
#include "rocke_library/kernels/attention/common/strided.hpp"

#include "rocke/helpers/index.hpp"

namespace rocke::library::kernels::attention::common {

using helpers::add_i32;
using helpers::const_i32;
using ir::Value;

Value* strided_index(ir::Builder& b, const ir::Values& coords, const ir::Values& strides, Value* first) {
  Value* index = b.mul(coords[0], strides[0]);
  for (std::size_t i = 1; i < coords.size(); ++i) {
    Value* term = b.mul(coords[i], strides[i]);
    index = b.add(index, term);
  }
  return b.add(index, first);
}

Value* strided_extent(ir::Builder& b, const ir::Values& counts, const ir::Values& strides, std::int64_t head_dim,
                      Value* rows, const std::string& name) {
  Value* last = add_i32(b, counts[0], -1);
  Value* extent = b.mul(last, strides[0]);
  for (std::size_t i = 1; i < counts.size(); ++i) {
    Value* last_i = add_i32(b, counts[i], -1);
    Value* span = b.mul(last_i, strides[i]);
    extent = b.add(extent, span);
  }
  extent = add_i32(b, extent, head_dim);
  Value* zero = const_i32(b, 0);
  Value* some = b.cmpi("sgt", rows, zero);
  Value* none = const_i32(b, 0);
  return b.select(some, extent, none, name);
}

}  // namespace rocke::library::kernels::attention::common
