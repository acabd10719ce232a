// Python twin: rocke/lower/ops_xlane.py
#include "rocke/lower/ops_xlane.hpp"

#include "rocke/arch/intrinsics.hpp"
#include "rocke/lower/emitter.hpp"
#include "rocke/lower/llvm_types.hpp"
#include "rocke/lower/ops_gpu.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::lower::ops_xlane {

std::string as_i32(FunctionEmitter& em, const ir::Value& value) { return em.operand_as(value, "i32"); }

void call_i32(FunctionEmitter& em, const ir::Op& op, const arch::IntrinsicDef& row, CallArgs args) {
  em.call_into(em.declare(row), args, *op.results[0]);
}

namespace {

// ds_swizzle bitmask mode (offset bit 15 clear): and_mask = bits 0-4, or_mask = bits 5-9,
// xor_mask = bits 10-14, acting within each group of 32 lanes.
constexpr std::int64_t kSwizzleXorShift = 10;
constexpr std::int64_t kSwizzleAndAll = 0x1F;

// The cross-lane intrinsics, each found by name once.
template <const std::string_view& Name>
const arch::IntrinsicDef& xlane_intrinsic() {
  static const arch::IntrinsicDef& row = arch::intrinsic_def(Name);
  return row;
}
constexpr std::string_view kSwizzle = "llvm.amdgcn.ds.swizzle";
constexpr std::string_view kBpermute = "llvm.amdgcn.ds.bpermute";
constexpr std::string_view kReadfirstlane = "llvm.amdgcn.readfirstlane.i32";

void lower_ds_swizzle(FunctionEmitter& em, const ir::Op& op) {
  std::string x = as_i32(em, *op.operands[0]);
  call_i32(em, op, xlane_intrinsic<kSwizzle>(), {x, std::to_string(int_attr(op, "pattern"))});
}

void lower_ds_bpermute(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& addr = *op.operands[0];
  const ir::Value& x = *op.operands[1];
  const std::string& addr_text = em.ref(addr);
  std::string word = as_i32(em, x);
  call_i32(em, op, xlane_intrinsic<kBpermute>(), {addr_text, word});
}

void lower_readfirstlane(FunctionEmitter& em, const ir::Op& op) {
  std::string word = as_i32(em, *op.operands[0]);
  call_i32(em, op, xlane_intrinsic<kReadfirstlane>(), {word});
}

// Masks below 32: ds_swizzle in bitmask mode (xor within 32 lanes). Larger masks (wave64 only):
// ds_bpermute from lane (lane_id ^ mask).
void lower_shuffle_xor(FunctionEmitter& em, const ir::Op& op) {
  std::int64_t mask = int_attr(op, "mask");
  if (mask >= em.arch.wave_size) {
    throw em.error(util::cat("mask ", std::to_string(mask), " is not below the wave size ",
                             std::to_string(em.arch.wave_size), " of ", em.arch.name));
  }
  std::string x = as_i32(em, *op.operands[0]);
  if (mask <= kSwizzleAndAll) {
    call_i32(em, op, xlane_intrinsic<kSwizzle>(), {x, std::to_string(mask << kSwizzleXorShift | kSwizzleAndAll)});
    return;
  }
  std::string lane = ops_gpu::emit_lane_id(em, std::nullopt);
  std::string other = em.temp();
  std::string addr = em.temp();
  em.emit(other, " = xor i32 ", lane, ", ", mask);
  em.emit(addr, " = shl i32 ", other, ", 2");
  call_i32(em, op, xlane_intrinsic<kBpermute>(), {addr, x});
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

}  // namespace rocke::lower::ops_xlane
