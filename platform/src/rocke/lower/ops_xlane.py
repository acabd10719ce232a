"""Lowering of xlane.* (cross-lane) and sync.* ops."""

from __future__ import annotations

from rocke.arch import waitcnt_encoding
from rocke.ir.core import Op, Value

from .emitter import FunctionEmitter, int_attr
from .ops_gpu import emit_lane_id

# ds_swizzle bitmask mode (offset bit 15 clear): and_mask = bits 0-4, or_mask = bits 5-9,
# xor_mask = bits 10-14, acting within each group of 32 lanes.
SWIZZLE_XOR_SHIFT = 10
SWIZZLE_AND_ALL = 0x1F


def as_i32(em: FunctionEmitter, value: Value) -> str:
    """value as i32 text (f32 is bitcast; the cross-lane intrinsics move 32-bit words)."""
    if value.type.text == "i32":
        return em.ref(value)
    word = em.temp()
    em.emit(f"{word} = bitcast {em.typed(value)} to i32")
    return word


def call_i32(em: FunctionEmitter, op: Op, name: str, args: list[str]) -> None:
    """result = name(args) on i32 words, bitcast back to the result type when it is f32."""
    result = op.results[0]
    if result.type.text == "i32":
        em.call_named(name, args, em.bind(result))
        return
    word = em.temp()
    em.call_named(name, args, word)
    em.emit(f"{em.bind(result)} = bitcast i32 {word} to float")


def lower_ds_swizzle(em: FunctionEmitter, op: Op) -> None:
    call_i32(em, op, "llvm.amdgcn.ds.swizzle", [as_i32(em, op.operands[0]), str(op.attrs["pattern"])])


def lower_ds_bpermute(em: FunctionEmitter, op: Op) -> None:
    addr, x = op.operands
    call_i32(em, op, "llvm.amdgcn.ds.bpermute", [em.ref(addr), as_i32(em, x)])


def lower_readfirstlane(em: FunctionEmitter, op: Op) -> None:
    call_i32(em, op, "llvm.amdgcn.readfirstlane.i32", [as_i32(em, op.operands[0])])


def lower_shuffle_xor(em: FunctionEmitter, op: Op) -> None:
    """Masks below 32: ds_swizzle in bitmask mode (xor within 32 lanes). Larger masks (wave64 only):
    ds_bpermute from lane (lane_id ^ mask)."""
    mask = int_attr(op, "mask")
    if mask >= em.arch.wave_size:
        raise em.error(f"mask {mask} is not below the wave size {em.arch.wave_size} of {em.arch.name}")
    x = as_i32(em, op.operands[0])
    if mask <= SWIZZLE_AND_ALL:
        call_i32(em, op, "llvm.amdgcn.ds.swizzle", [x, str(mask << SWIZZLE_XOR_SHIFT | SWIZZLE_AND_ALL)])
        return
    lane = emit_lane_id(em, None)
    other, addr = em.temp(), em.temp()
    em.emit(f"{other} = xor i32 {lane}, {mask}")
    em.emit(f"{addr} = shl i32 {other}, 2")
    call_i32(em, op, "llvm.amdgcn.ds.bpermute", [addr, x])


def lower_barrier(em: FunctionEmitter, op: Op) -> None:
    """s_barrier between workgroup-scope release and acquire fences, so LDS accesses are ordered."""
    em.emit('fence syncscope("workgroup") release')
    em.call_named("llvm.amdgcn.s.barrier", [], None)
    em.emit('fence syncscope("workgroup") acquire')


def lower_waitcnt(em: FunctionEmitter, op: Op) -> None:
    """Per the arch's waitcnt_model (intrinsics.toml [[waitcnt]]). An attribute of -1 waits for
    nothing; a count above what a counter encodes is clamped to its maximum."""
    encoding = waitcnt_encoding(em.arch.waitcnt_model)
    limits = em.arch.waitcnt_counters
    if encoding.form == "split":
        for wait in encoding.waits:
            count = int_attr(op, wait.attr)
            if count >= 0:
                em.call_named(wait.intrinsic, [str(min(count, _limit(limits, wait.counter)))], None)
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
        value = _limit(tuple(values), field.counter)
        imm |= (value >> field.value_shift & (1 << field.bits) - 1) << field.imm_shift
    em.call_named(encoding.intrinsic, [str(imm)], None)


def _limit(pairs: tuple[tuple[str, int], ...], counter: str) -> int:
    for name, value in pairs:
        if name == counter:
            return value
    raise ValueError(f"no waitcnt counter '{counter}'")


LOWERINGS = {
    "xlane.ds_swizzle": lower_ds_swizzle,
    "xlane.ds_bpermute": lower_ds_bpermute,
    "xlane.readfirstlane": lower_readfirstlane,
    "xlane.shuffle_xor": lower_shuffle_xor,
    "sync.barrier": lower_barrier,
    "sync.waitcnt": lower_waitcnt,
}
