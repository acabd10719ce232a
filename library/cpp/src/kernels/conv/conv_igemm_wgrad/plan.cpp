// Python twin: rocke_library/kernels/conv/conv_igemm_wgrad/plan.py
#include "rocke_library/kernels/conv/conv_igemm_wgrad/plan.hpp"

#include <string_view>

namespace rocke::library::kernels::conv::conv_igemm_wgrad {

helpers::TileShape tile_shape(const ConvIgemmWgradSpec& spec) {
  return helpers::TileShape{.bm = spec.bm,
                            .bn = spec.bn,
                            .bk = spec.bk,
                            .wm = spec.wm,
                            .wn = spec.wn,
                            .lds_pad = spec.lds_pad,
                            .double_buffer = spec.double_buffer,
                            .dtype = spec.dtype,
                            .op = &spec.atom(),
                            .a_k_contiguous = false,
                            .b_k_contiguous = false,
                            .a_max_vec = spec.vec,
                            .b_max_vec = spec.vec};
}

helpers::TileGemmPlan plan_wgrad(const ConvIgemmWgradSpec& spec, const arch::ArchTarget& target) {
  return helpers::plan_tile_gemm(tile_shape(spec), target,
                                 [&spec](std::string_view field, std::string_view rule) { spec.fail(field, rule); });
}

}  // namespace rocke::library::kernels::conv::conv_igemm_wgrad
