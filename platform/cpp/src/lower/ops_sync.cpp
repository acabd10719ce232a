// Python twin: rocke/lower/ops_sync.py
#include "rocke/lower/ops_sync.hpp"

#include <algorithm>

#include "rocke/arch/intrinsics.hpp"
#include "rocke/lower/emitter.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::lower::ops_sync {

namespace {

using Pairs = std::vector<std::pair<std::string, std::int64_t>>;

std::int64_t limit_of(const Pairs& pairs, std::string_view counter);

// s_barrier between workgroup-scope release and acquire fences, so LDS accesses are ordered.
void lower_barrier(FunctionEmitter& em, const ir::Op&) {
  em.emit("fence syncscope(\"workgroup\") release");
  em.call_named("llvm.amdgcn.s.barrier", {}, std::nullopt);
  em.emit("fence syncscope(\"workgroup\") acquire");
}

// A wavefront-scope fence: no instruction (a wave's LDS operations complete in order), but
// LLVM keeps the wave's LDS accesses on their side of it.
void lower_wave_lds_fence(FunctionEmitter& em, const ir::Op&) { em.emit("fence syncscope(\"wavefront\") acq_rel"); }

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

std::int64_t limit_of(const Pairs& pairs, std::string_view counter) {
  for (const auto& [name, value] : pairs) {
    if (name == counter) return value;
  }
  throw ValueError(util::cat("no waitcnt counter '", counter, "'"));
}

}  // namespace

const Lowerings& shared_lowerings() {
  static const Lowerings table{{"sync.waitcnt", &lower_waitcnt}};
  return table;
}

const Lowerings& lowerings() {
  static const Lowerings table{
      {"sync.barrier", &lower_barrier},
      {"sync.wave_lds_fence", &lower_wave_lds_fence},
  };
  return table;
}

}  // namespace rocke::lower::ops_sync
