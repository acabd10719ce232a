// rocKE C++ engine: the gemm family's spec, C = alpha * A @ B (+ bias) on one MMA atom per wave.
// Python twin: rocke/families/gemm/spec.py (same fields, same rules in the same order, same texts)
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/arch/mma.hpp"
#include "rocke/families/spec.hpp"

namespace rocke::families::gemm {

inline constexpr std::array<std::string_view, 2> INPUT_DTYPES = {"f16", "bf16"};
inline constexpr std::array<std::string_view, 2> LAYOUTS = {"row", "col"};
using families::MAX_LDS_PAD;
using families::MAX_TILE_K;
using families::MAX_TILE_MN;
using families::MAX_WAVES_PER_DIM;

// A is M x K, B is K x N, C is M x N row-major; *_layout says how A and B are stored ("row":
// consecutive elements of a row are adjacent, "col": of a column). bm x bn x bk is the workgroup
// tile, wm x wn the grid of waves over it, op_id the MMA atom each wave repeats. lds_pad adds
// elements to every LDS line; double_buffer stages the next K tile while the MMAs read the
// current one. bias adds a length-N vector (of c_dtype) to every row.
struct GemmSpec : Spec<GemmSpec> {
  static constexpr std::string_view FAMILY = "gemm";

  std::string a_dtype;
  std::string a_layout;
  std::string b_dtype;
  std::string b_layout;
  bool bias = false;
  std::int64_t bk = 0;
  std::int64_t bm = 0;
  std::int64_t bn = 0;
  std::string c_dtype;
  bool double_buffer = false;
  std::int64_t lds_pad = 0;
  std::string op_id;
  std::int64_t wm = 0;
  std::int64_t wn = 0;

  static const std::vector<Field<GemmSpec>>& fields();
  void check() const;
  // The MMA catalog op each wave repeats.
  const arch::MmaOp& atom() const;
  // Threads per workgroup: wm * wn waves of the atom's wave size.
  std::int64_t threads() const;
};

}  // namespace rocke::families::gemm
