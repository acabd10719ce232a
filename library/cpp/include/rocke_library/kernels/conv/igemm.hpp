// rocKE library: shared pieces of the implicit-GEMM conv specs -- the dtype, vector and tile rules:
// f16/bf16 inputs, the MMA atom and the tile-GEMM main loop's tile (families::check_tile_gemm).
// Python twin: rocke_library/kernels/conv/igemm.py
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "rocke/arch/mma.hpp"
#include "rocke/families/spec.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::library::kernels::conv {

inline constexpr std::array<std::string_view, 2> kInputDtypes = {"f16", "bf16"};

// The rules, in order: dtype, vec (families::check_vec), the atom (check_mma_atom), the tile of the
// main loop (check_tile_gemm); returns the atom. S is a conv spec with the tile fields and Spec::fail.
template <class S>
const arch::MmaOp& check_gemm_tile(const S& spec) {
  if (spec.dtype != kInputDtypes[0] && spec.dtype != kInputDtypes[1]) {
    spec.fail("dtype", util::cat("must be one of ", kInputDtypes[0], ", ", kInputDtypes[1]));
  }
  families::check_vec(spec);
  const arch::MmaOp& op = families::check_mma_atom(spec, "dtype", spec.dtype);
  families::check_tile_gemm(spec, op);
  return op;
}

}  // namespace rocke::library::kernels::conv
