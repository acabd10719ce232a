// Python twin: rocke_library/kernels/conv/igemm.py
#include "rocke_library/kernels/conv/igemm.hpp"

#include "rocke/helpers/buffers.hpp"

namespace rocke::library::kernels::conv {

ir::Value* nhwc_rsrc(ir::Builder& b, ir::Value* base, const std::array<ir::Value*, 4>& dims, std::int64_t esize,
                     ir::Hint name) {
  auto [n, h, w, c] = dims;
  ir::Value* nh = b.mul(n, h);
  ir::Value* nhw = b.mul(nh, w);
  ir::Value* elems = b.mul(nhw, c);
  return helpers::buffer_rsrc(b, base, elems, esize, name);
}

}  // namespace rocke::library::kernels::conv
