// rocKE library: builder of the conv_direct_fwd family.
// Python twin: rocke_library/kernels/conv/conv_direct_fwd/builder.py (function for function; the
// test-only faults of the Python builder are not twinned: configs, goldens and C++ never use them)
//
// Workgroup (x, y, z) computes output pixels x * tile_p .. times channels y * tile_k .. of group z
// (depthwise: of all C channels). Thread t owns thread_p pixels, strided by tile_p / thread_p,
// times thread_k consecutive channels, and keeps thread_p * thread_k f32 accumulators. Grouped: an
// scf.for over the taps, inside it an scf.for over the group's channels in steps of vec. Depthwise:
// per tap one scalar weight per channel and thread_k / vec input vectors per pixel. Taps in the
// padding, pixels past N x Ho x Wo and channels past the group read zero (out-of-range offsets);
// the epilogue adds the bias, applies relu, rounds and stores with guarded vector stores.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "rocke/arch/target.hpp"
#include "rocke/ir/builder.hpp"
#include "rocke_library/kernels/conv/conv_direct_fwd/spec.hpp"
#include "rocke_library/kernels/conv/pixels.hpp"

namespace rocke::library::kernels::conv::conv_direct_fwd {

inline constexpr std::int64_t kMaxStoreBytes = 16;

// The problem as device values. Depthwise: cg is nullptr (1) and kg is c.
struct Sizes {
  ir::Value* h = nullptr;
  ir::Value* w = nullptr;
  ir::Value* c = nullptr;
  ir::Value* kout = nullptr;  // output channels (row length of the output)
  ir::Value* cg = nullptr;    // input channels per group
  ir::Value* kg = nullptr;    // output channels per group
  ir::Value* wc = nullptr;    // W * C: input elements of one image row
};

// What one thread owns.
struct Thread {
  std::vector<Pixel> pixels;
  ir::Values rows;           // output element index of each pixel's channel 0
  ir::Value* k_first = nullptr;  // first channel of the thread inside its group
  ir::Values k_ok;           // per channel: inside the group
  ir::Values k_abs;          // per channel: absolute output channel
};

// The kernel's parameters, in signature order (bias only with spec.bias, k and g only for a
// grouped kernel; nullptr otherwise).
struct Params {
  ir::Value* input = nullptr;
  ir::Value* weight = nullptr;
  ir::Value* bias = nullptr;
  ir::Value* output = nullptr;
  ir::Value* n = nullptr;
  ir::Value* h = nullptr;
  ir::Value* w = nullptr;
  ir::Value* c = nullptr;
  ir::Value* k = nullptr;
  ir::Value* g = nullptr;
};

// The arch-dependent rules (SpecError).
void check_arch(const ConvDirectFwdSpec& spec, const arch::ArchTarget& target);

// Channels per output store: thread_k, at most 16 bytes.
std::int64_t store_width(const ConvDirectFwdSpec& spec);

// The verified kernel for spec on arch; SpecError when the arch refuses the spec.
ir::KernelDef build(const ConvDirectFwdSpec& spec, std::string_view arch);

// The family registry's entry: ConvDirectFwdSpec::from_kv(kv), then build(spec, arch).
ir::KernelDef build_kv(std::string_view kv, std::string_view arch);

}  // namespace rocke::library::kernels::conv::conv_direct_fwd
