// Python twin: rocke/lower/ops_xlane.py
#include "rocke/lower/ops_xlane.hpp"

#include <algorithm>

#include "rocke/arch/intrinsics.hpp"
#include "rocke/lower/emitter.hpp"
#include "rocke/lower/llvm_types.hpp"
#include "rocke/lower/ops_gpu.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::lower::ops_xlane {

namespace {

// ds_swizzle bitmask mode (offset bit 15 clear): and_mask = bits 0-4, or_mask = bits 5-9,
// xor_mask = bits 10-14, acting within each group of 32 lanes.
constexpr std::int64_t kSwizzleXorShift = 10;
constexpr std::int64_t kSwizzleAndAll = 0x1F;

using Pairs = std::vector<std::pair<std::string, std::int64_t>>;

std::int64_t limit_of(const Pairs& pairs, std::string_view counter) {
  for (const auto& [name, value] : pairs) {
    if (name == counter) return value;
  }
  throw ValueError(util::cat("no waitcnt counter '", counter, "'"));
}

// value as i32 text (f32 is bitcast; the cross-lane intrinsics move 32-bit words).
std::string as_i32(FunctionEmitter& em, const ir::Value& value) {
  if (value.type == ir::i32) return em.ref(value);
  std::string word = em.temp();
  em.emit(util::cat(word, " = bitcast ", em.typed(value), " to i32"));
  return word;
}

// result = name(args) on i32 words, bitcast back to the result type when it is f32.
void call_i32(FunctionEmitter& em, const ir::Op& op, std::string_view name, const std::vector<std::string>& args) {
  const ir::Value& result = *op.results[0];
  if (result.type == ir::i32) {
    em.call_named(name, args, em.bind(result));
    return;
  }
  std::string word = em.temp();
  em.call_named(name, args, word);
  std::string bound = em.bind(result);
  em.emit(util::cat(bound, " = bitcast i32 ", word, " to float"));
}

void lower_ds_swizzle(FunctionEmitter& em, const ir::Op& op) {
  std::string x = as_i32(em, *op.operands[0]);
  call_i32(em, op, "llvm.amdgcn.ds.swizzle", {x, std::to_string(int_attr(op, "pattern"))});
}

void lower_ds_bpermute(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& addr = *op.operands[0];
  const ir::Value& x = *op.operands[1];
  std::string addr_text = em.ref(addr);
  std::string word = as_i32(em, x);
  call_i32(em, op, "llvm.amdgcn.ds.bpermute", {addr_text, word});
}

void lower_readfirstlane(FunctionEmitter& em, const ir::Op& op) {
  std::string word = as_i32(em, *op.operands[0]);
  call_i32(em, op, "llvm.amdgcn.readfirstlane.i32", {word});
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
    call_i32(em, op, "llvm.amdgcn.ds.swizzle", {x, std::to_string(mask << kSwizzleXorShift | kSwizzleAndAll)});
    return;
  }
  std::string lane = ops_gpu::emit_lane_id(em, std::nullopt);
  std::string other = em.temp();
  std::string addr = em.temp();
  em.emit(util::cat(other, " = xor i32 ", lane, ", ", std::to_string(mask)));
  em.emit(util::cat(addr, " = shl i32 ", other, ", 2"));
  call_i32(em, op, "llvm.amdgcn.ds.bpermute", {addr, x});
}

// s_barrier between workgroup-scope release and acquire fences, so LDS accesses are ordered.
void lower_barrier(FunctionEmitter& em, const ir::Op&) {
  em.emit("fence syncscope(\"workgroup\") release");
  em.call_named("llvm.amdgcn.s.barrier", {}, std::nullopt);
  em.emit("fence syncscope(\"workgroup\") acquire");
}

// Per the arch's waitcnt_model (intrinsics.toml [[waitcnt]]). An attribute of -1 waits for
// nothing; a count above what a counter encodes is clamped to its maximum.
void lower_waitcnt(FunctionEmitter& em, const ir::Op& op) {
  const arch::WaitcntEncoding& encoding = arch::waitcnt_encoding(em.arch.waitcnt_model);
  const Pairs& limits = em.arch.waitcnt_counters;
  if (encoding.form == "split") {
    for (const arch::WaitcntWait& wait : encoding.waits) {
      std::int64_t count = int_attr(op, wait.attr);
      if (count >= 0) {
        em.call_named(wait.intrinsic, {std::to_string(std::min(count, limit_of(limits, wait.counter)))},
                      std::nullopt);
      }
    }
    return;
  }
  Pairs values;
  bool waiting = false;
  for (const auto& [counter, limit] : limits) {
    std::int64_t value = limit;
    for (const arch::WaitcntWait& wait : encoding.waits) {
      std::int64_t count = int_attr(op, wait.attr);
      if (wait.counter == counter && count >= 0) {
        value = std::min(count, limit);
        waiting = true;
      }
    }
    values.emplace_back(counter, value);
  }
  if (!waiting) return;
  std::int64_t imm = 0;
  for (const arch::WaitcntField& field : encoding.fields) {
    std::int64_t value = limit_of(values, field.counter);
    imm |= (value >> field.value_shift & ((std::int64_t{1} << field.bits) - 1)) << field.imm_shift;
  }
  em.call_named(encoding.intrinsic, {std::to_string(imm)}, std::nullopt);
}

}  // namespace

const Lowerings& lowerings() {
  static const Lowerings table{
      {"xlane.ds_swizzle", &lower_ds_swizzle},
      {"xlane.ds_bpermute", &lower_ds_bpermute},
      {"xlane.readfirstlane", &lower_readfirstlane},
      {"xlane.shuffle_xor", &lower_shuffle_xor},
      {"sync.barrier", &lower_barrier},
      {"sync.waitcnt", &lower_waitcnt},
  };
  return table;
}

}  // namespace rocke::lower::ops_xlane
