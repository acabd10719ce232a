// Python twin: rocke/lower/nvptx/ops_xlane.py
#include "rocke/lower/nvptx/ops_xlane.hpp"

#include "rocke/lower/emitter.hpp"
#include "rocke/lower/nvptx/ops_gpu.hpp"
#include "rocke/lower/ops_xlane.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::lower::nvptx::ops_xlane {

namespace {

constexpr std::string_view kFullWarp = "-1";   // shfl.sync membermask: every lane of the warp
constexpr std::string_view kClamp = "31";      // shfl.sync c operand: lanes are read within the 32-lane warp
constexpr std::int64_t kQuadMode = 0x8000;     // ds_swizzle pattern bit 15: quad permute mode
constexpr std::int64_t kRotateOrFft = 0xC000;  // ds_swizzle patterns from here select the rotate / FFT modes

template <const std::string_view& Name>
const arch::IntrinsicDef& nvvm_intrinsic() {
  static const arch::IntrinsicDef& row = arch::intrinsic_def(Name);
  return row;
}
constexpr std::string_view kShflIdx = "llvm.nvvm.shfl.sync.idx.i32";
constexpr std::string_view kShflBfly = "llvm.nvvm.shfl.sync.bfly.i32";

void shfl_idx(FunctionEmitter& em, const ir::Op& op, std::string_view source, std::string_view mask = kFullWarp) {
  std::string word = lower::ops_xlane::as_i32(em, *op.operands.back());
  lower::ops_xlane::call_i32(em, op, nvvm_intrinsic<kShflIdx>(), {mask, word, source, kClamp});
}

// The source lane of the ds_swizzle pattern (bitmask or quad mode), computed from %laneid.
void lower_ds_swizzle(FunctionEmitter& em, const ir::Op& op) {
  std::int64_t pattern = int_attr(op, "pattern");
  if (pattern >= kRotateOrFft) {
    char hex[24];
    std::snprintf(hex, sizeof hex, "%04llX", static_cast<unsigned long long>(pattern));
    throw em.error(util::cat("pattern 0x", hex, " selects the rotate or FFT swizzle mode, which ", em.arch.name,
                             " does not lower"));
  }
  std::string lane = ops_gpu::read_sreg(em, "laneid", std::nullopt);
  std::string source;
  if ((pattern & kQuadMode) != 0) {
    std::string quad = em.temp();
    std::string shift = em.temp();
    std::string picked = em.temp();
    std::string selector = em.temp();
    std::string base = em.temp();
    source = em.temp();
    em.emit(quad, " = and i32 ", lane, ", 3");
    em.emit(shift, " = shl i32 ", quad, ", 1");
    em.emit(picked, " = lshr i32 ", pattern & 0xFF, ", ", shift);
    em.emit(selector, " = and i32 ", picked, ", 3");
    em.emit(base, " = and i32 ", lane, ", -4");
    em.emit(source, " = or i32 ", base, ", ", selector);
  } else {
    std::string kept = em.temp();
    std::string ored = em.temp();
    source = em.temp();
    em.emit(kept, " = and i32 ", lane, ", ", pattern & 0x1F);
    em.emit(ored, " = or i32 ", kept, ", ", (pattern >> 5) & 0x1F);
    em.emit(source, " = xor i32 ", ored, ", ", (pattern >> 10) & 0x1F);
  }
  shfl_idx(em, op, source);
}

// Lane (addr >> 2) mod 32, as ds_bpermute_b32 reads it in wave32.
void lower_ds_bpermute(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& addr = *op.operands[0];
  std::string shifted = em.temp();
  std::string source = em.temp();
  em.emit(shifted, " = lshr i32 ", em.ref(addr), ", 2");
  em.emit(source, " = and i32 ", shifted, ", ", em.arch.wave_size - 1);
  shfl_idx(em, op, source);
}

void lower_shuffle_xor(FunctionEmitter& em, const ir::Op& op) {
  std::int64_t mask = int_attr(op, "mask");
  if (mask >= em.arch.wave_size) {
    throw em.error(util::cat("mask ", std::to_string(mask), " is not below the wave size ",
                             std::to_string(em.arch.wave_size), " of ", em.arch.name));
  }
  std::string word = lower::ops_xlane::as_i32(em, *op.operands[0]);
  lower::ops_xlane::call_i32(em, op, nvvm_intrinsic<kShflBfly>(), {kFullWarp, word, std::to_string(mask), kClamp});
}

// shfl.sync.idx from the lowest set bit of the active mask, among the active lanes.
void lower_readfirstlane(FunctionEmitter& em, const ir::Op& op) {
  std::string active = em.temp();
  std::string first = em.temp();
  em.call_named("llvm.nvvm.activemask", {}, active);
  em.call_named("llvm.cttz.i32", {active, "true"}, first);
  shfl_idx(em, op, first, active);
}

}  // namespace

const Lowerings& lowerings() {
  static const Lowerings table{
      {"xlane.ds_swizzle", &lower_ds_swizzle},
      {"xlane.ds_bpermute", &lower_ds_bpermute},
      {"xlane.readfirstlane", &lower_readfirstlane},
      {"xlane.shuffle_xor", &lower_shuffle_xor},
  };
  return table;
}

}  // namespace rocke::lower::nvptx::ops_xlane
