// Python twin: rocke/families/gemm/plan.py
#include "rocke/families/gemm/plan.hpp"

#include <string_view>

namespace rocke::families::gemm {

helpers::TileShape tile_shape(const GemmSpec& spec) {
  return helpers::TileShape{.bm = spec.bm,
                            .bn = spec.bn,
                            .bk = spec.bk,
                            .wm = spec.wm,
                            .wn = spec.wn,
                            .lds_pad = spec.lds_pad,
                            .double_buffer = spec.double_buffer,
                            .dtype = spec.a_dtype,
                            .op = &spec.atom(),
                            .a_k_contiguous = spec.a_layout == "row",
                            .b_k_contiguous = spec.b_layout == "col"};
}

GemmPlan plan_gemm(const GemmSpec& spec, const arch::ArchTarget& target) {
  return helpers::plan_tile_gemm(tile_shape(spec), target,
                                 [&spec](std::string_view field, std::string_view rule) { spec.fail(field, rule); });
}

}  // namespace rocke::families::gemm
