"""Lowering of sync.* ops: the workgroup barrier, the wave LDS fence and the waitcnt of each arch's
counter model."""

from __future__ import annotations

from rocke.arch import waitcnt_encoding
from rocke.ir.core import Op

from .emitter import FunctionEmitter, int_attr


def lower_barrier(em: FunctionEmitter, op: Op) -> None:
    """s_barrier between workgroup-scope release and acquire fences, so LDS accesses are ordered."""
    em.emit('fence syncscope("workgroup") release')
    em.call_named("llvm.amdgcn.s.barrier", [], None)
    em.emit('fence syncscope("workgroup") acquire')


def lower_wave_lds_fence(em: FunctionEmitter, op: Op) -> None:
    """A wavefront-scope fence: no instruction (a wave's LDS operations complete in order), but
    LLVM keeps the wave's LDS accesses on their side of it."""
    em.emit('fence syncscope("wavefront") acq_rel')


def lower_waitcnt(em: FunctionEmitter, op: Op) -> None:
    """Per the arch's waitcnt_model (intrinsics.toml [[waitcnt]]). An attribute of -1 waits for
    nothing; a count above what a counter encodes is clamped to its maximum."""
    encoding = waitcnt_encoding(em.arch.waitcnt_model)
    limits = em.arch.waitcnt_counters
    if encoding.form == "split":
        for wait in encoding.waits:
            count = int_attr(op, wait.attr)
            if count >= 0:
                em.call_named(wait.intrinsic, [str(min(count, _limit_of(limits, wait.counter)))], None)
        return
    values = []
    waiting = False
    for counter, limit in limits:
        value = limit
        for wait in encoding.waits:
            count = int_attr(op, wait.attr)
            if wait.counter == counter and count >= 0:
                value = min(count, limit)
                waiting = True
        values.append((counter, value))
    if not waiting:
        return
    imm = 0
    for field in encoding.fields:
        value = _limit_of(tuple(values), field.counter)
        imm |= (value >> field.value_shift & (1 << field.bits) - 1) << field.imm_shift
    em.call_named(encoding.intrinsic, [str(imm)], None)


def _limit_of(pairs: tuple[tuple[str, int], ...], counter: str) -> int:
    for name, value in pairs:
        if name == counter:
            return value
    raise ValueError(f"no waitcnt counter '{counter}'")


# Data-driven by the arch's waitcnt_model, so every target shares it.
SHARED_LOWERINGS = {"sync.waitcnt": lower_waitcnt}

# The amdgcn target's barrier and fence.
LOWERINGS = {
    "sync.barrier": lower_barrier,
    "sync.wave_lds_fence": lower_wave_lds_fence,
}
