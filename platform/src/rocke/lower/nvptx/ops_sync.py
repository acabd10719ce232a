"""nvptx lowering of sync.* ops: bar.sync 0 for the workgroup barrier, bar.warp.sync for the
warp-scope shared-memory fence (a warp's threads may diverge and reconverge on sm_70+, so the fence
must also reconverge them). sync.waitcnt is the shared table's (the "none" model: no instruction)."""

from __future__ import annotations

from rocke.ir.core import Op

from ..emitter import FunctionEmitter


def lower_barrier(em: FunctionEmitter, op: Op) -> None:
    """bar.sync 0: waits for the block and orders its shared and global memory accesses (PTX ISA
    "bar, barrier": bar.sync has membar.cta semantics)."""
    em.call_named("llvm.nvvm.barrier0", [], None)


def lower_wave_lds_fence(em: FunctionEmitter, op: Op) -> None:
    em.call_named("llvm.nvvm.bar.warp.sync", ["-1"], None)


LOWERINGS = {
    "sync.barrier": lower_barrier,
    "sync.wave_lds_fence": lower_wave_lds_fence,
}
