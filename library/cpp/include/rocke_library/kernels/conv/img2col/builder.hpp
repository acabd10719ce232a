// rocKE library: builder of the img2col family.
// Python twin: rocke_library/kernels/conv/img2col/builder.py (function for function; the test-only
// faults of the Python builder are not twinned: configs, goldens and C++ never use them)
//
// The column matrix of group g is col[g][m][(ty * filter_x + tx) * Cg + c]: row m is output pixel m
// (NHWC order over N x Ho x Wo), column (tap, c) is input channel g * Cg + c under that tap. Thread
// (m, v) of group g copies the vec channels v * vec .. of every tap of pixel m: one bounds-checked
// vector load (zero for taps in the padding) and one vector store per tap, taps unrolled.
#pragma once

#include <cstdint>
#include <string_view>

#include "rocke/arch/target.hpp"
#include "rocke/ir/builder.hpp"
#include "rocke_library/kernels/conv/img2col/spec.hpp"
#include "rocke_library/kernels/conv/pixels.hpp"

namespace rocke::library::kernels::conv::img2col {

// What every tap's copy shares.
struct TapCopy {
  ir::Value* src = nullptr;        // input buffer resource
  ir::Value* dst = nullptr;        // column buffer resource
  ir::Value* dst0 = nullptr;       // byte offset of the thread's vector in tap 0's column block
  ir::Value* tap_bytes = nullptr;  // bytes between two taps' column blocks (Cg elements)
  ir::Value* h = nullptr;          // input height
  ir::Value* w = nullptr;          // input width
  ir::Value* row_step = nullptr;   // input elements between two filter rows
  ir::Value* col_step = nullptr;   // input elements between two filter columns
  ir::Type vtype;                  // the vector moved
  std::int64_t esize = 0;
};

// The arch-dependent rules (SpecError).
void check_arch(const Img2colSpec& spec, const arch::ArchTarget& target);

// The verified kernel for spec on arch; SpecError when the arch refuses the spec.
ir::KernelDef build(const Img2colSpec& spec, std::string_view arch);

// The family registry's entry: Img2colSpec::from_kv(kv), then build(spec, arch).
ir::KernelDef build_kv(std::string_view kv, std::string_view arch);

}  // namespace rocke::library::kernels::conv::img2col
