// Python twin: rocke/lower/nvptx/ops_sync.py
#include "rocke/lower/nvptx/ops_sync.hpp"

#include "rocke/lower/emitter.hpp"

namespace rocke::lower::nvptx::ops_sync {

namespace {

// bar.sync 0: waits for the block and orders its shared and global memory accesses (PTX ISA "bar,
// barrier": bar.sync has membar.cta semantics).
void lower_barrier(FunctionEmitter& em, const ir::Op&) { em.call_named("llvm.nvvm.barrier0", {}, std::nullopt); }

void lower_wave_lds_fence(FunctionEmitter& em, const ir::Op&) {
  em.call_named("llvm.nvvm.bar.warp.sync", {"-1"}, std::nullopt);
}

}  // namespace

const Lowerings& lowerings() {
  static const Lowerings table{
      {"sync.barrier", &lower_barrier},
      {"sync.wave_lds_fence", &lower_wave_lds_fence},
  };
  return table;
}

}  // namespace rocke::lower::nvptx::ops_sync
