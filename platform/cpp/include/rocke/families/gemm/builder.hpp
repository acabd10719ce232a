// rocKE C++ engine: the gemm family's builder twin.
// Python twin: rocke/families/gemm/builder.py (function for function, same op order and hints; the
// test-only faults of the Python builder are not twinned: configs, goldens and C++ never use them).
// One user of the tile-GEMM main loop (rocke/helpers/tile_gemm.hpp) with dense-matrix operands.
//
// Workgroup (x, y) owns the tile C[y*bm .. +bm, x*bn .. +bn]; wave w owns the sub-tile at
// (w / wn, w % wn) and accumulates rep_m x rep_n MMA atoms in f32. Per K tile of bk: every thread
// copies its share of A and B into LDS with bounds-checked buffer loads (out-of-range elements
// read 0), a barrier, then each wave loads its fragments from LDS and issues the MMAs. With
// double_buffer the copy of tile t + 1 goes to the other LDS stage while the MMAs read tile t. The
// epilogue scales by alpha, adds the bias and stores through a buffer resource; out-of-range
// elements get an out-of-range offset and drop.
#pragma once

#include <string>
#include <string_view>

#include "rocke/families/gemm/spec.hpp"
#include "rocke/ir/core.hpp"

namespace rocke::families::gemm {

// The verified kernel for spec on arch; SpecError when the arch refuses the spec, UnknownArchError
// for an unknown arch.
ir::KernelDef build(const GemmSpec& spec, std::string_view arch);

// The registry's entry point: GemmSpec::from_kv(kv), then build(spec, arch).
ir::KernelDef build_kv(std::string_view kv, std::string_view arch);

}  // namespace rocke::families::gemm
