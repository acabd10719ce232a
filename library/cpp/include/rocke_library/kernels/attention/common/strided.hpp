// rocKE library: strided (token, head) rows of the attention tensors as the backward's elementwise
// kernels address them -- a row's element index and a tensor's extent from per-dimension
// coordinates, counts and strides (outermost first); head_dim elements contiguous.
// Python twin: rocke_library/kernels/attention/common/strided.py
#pragma once

#include <cstdint>
#include <string>

#include "rocke/ir/builder.hpp"

namespace rocke::library::kernels::attention::common {

// sum of coords[i] * strides[i], plus first (the element inside the row).
ir::Value* strided_index(ir::Builder& b, const ir::Values& coords, const ir::Values& strides, ir::Value* first);

// Elements from the tensor's first to one past its last: sum of (counts[i] - 1) * strides[i] plus
// head_dim, or 0 when rows (the tensor's row count) is 0.
ir::Value* strided_extent(ir::Builder& b, const ir::Values& counts, const ir::Values& strides, std::int64_t head_dim,
                          ir::Value* rows, const std::string& name);

}  // namespace rocke::library::kernels::attention::common
