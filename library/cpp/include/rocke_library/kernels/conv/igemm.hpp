// rocKE library: shared pieces of the implicit-GEMM conv specs -- the tile rules: the MMA atom and the workgroup tile
// of the GEMM view (bm x bn x bk, wm x wn waves, lds_pad, f16/bf16 inputs).
// Python twin: rocke_library/kernels/conv/igemm.py
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "rocke/arch/mma.hpp"
#include "rocke/families/spec.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::library::kernels::conv {

inline constexpr std::array<std::string_view, 2> INPUT_DTYPES = {"f16", "bf16"};
inline constexpr std::int64_t MAX_WAVES_PER_DIM = 8;
inline constexpr std::int64_t MAX_TILE_MN = 256;
inline constexpr std::int64_t MAX_TILE_K = 128;
inline constexpr std::int64_t MAX_LDS_PAD = 16;

// The rules, in order: dtype, the atom (op_id), waves, tile sizes, atom multiples, LDS pad; returns
// the atom. S is a conv spec with the tile fields and Spec::fail.
template <class S>
const arch::MmaOp& check_gemm_tile(const S& spec) {
  using std::to_string;
  using util::cat;
  if (spec.dtype != INPUT_DTYPES[0] && spec.dtype != INPUT_DTYPES[1]) {
    spec.fail("dtype", cat("must be one of ", INPUT_DTYPES[0], ", ", INPUT_DTYPES[1]));
  }
  const arch::MmaOp& op = families::check_mma_atom(spec, "dtype", spec.dtype);
  for (auto [field, value] : {std::pair<std::string_view, std::int64_t>{"wm", spec.wm}, {"wn", spec.wn}}) {
    if (value < 1 || value > MAX_WAVES_PER_DIM) spec.fail(field, cat("must be in 1..", to_string(MAX_WAVES_PER_DIM)));
  }
  for (auto [field, value, most] : {std::tuple<std::string_view, std::int64_t, std::int64_t>{"bm", spec.bm, MAX_TILE_MN},
                                    {"bn", spec.bn, MAX_TILE_MN},
                                    {"bk", spec.bk, MAX_TILE_K}}) {
    if (value < 1 || value > most) spec.fail(field, cat("must be in 1..", to_string(most)));
  }
  if (spec.bm % (spec.wm * op.m) != 0) {
    spec.fail("bm", cat("must be a multiple of wm * atom m = ", to_string(spec.wm), " * ", to_string(op.m), " (",
                        op.id, ")"));
  }
  if (spec.bn % (spec.wn * op.n) != 0) {
    spec.fail("bn", cat("must be a multiple of wn * atom n = ", to_string(spec.wn), " * ", to_string(op.n), " (",
                        op.id, ")"));
  }
  if (spec.bk % op.k != 0) spec.fail("bk", cat("must be a multiple of atom k = ", to_string(op.k), " (", op.id, ")"));
  if (spec.lds_pad < 0 || spec.lds_pad > MAX_LDS_PAD) spec.fail("lds_pad", cat("must be in 0..", to_string(MAX_LDS_PAD)));
  return op;
}

}  // namespace rocke::library::kernels::conv
