"""Lowering of xlane.* (cross-lane) ops: swizzles, permutes and readfirstlane on 32-bit words."""

from __future__ import annotations

from rocke.arch import intrinsic_def
from rocke.ir.core import Op, Value

from .emitter import FunctionEmitter, int_attr
from .ops_gpu import emit_lane_id

# ds_swizzle bitmask mode (offset bit 15 clear): and_mask = bits 0-4, or_mask = bits 5-9,
# xor_mask = bits 10-14, acting within each group of 32 lanes.
SWIZZLE_XOR_SHIFT = 10
SWIZZLE_AND_ALL = 0x1F


def as_i32(em: FunctionEmitter, value: Value) -> str:
    """value as i32 text (f32 is bitcast; the cross-lane intrinsics move 32-bit words)."""
    return em.operand_as(value, "i32")


def call_i32(em: FunctionEmitter, op: Op, name: str, args: list[str]) -> None:
    """result = name(args) on i32 words, bitcast back to the result type when it is f32."""
    em.call_into(em.declare(intrinsic_def(name)), args, op.results[0])


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


LOWERINGS = {
    "xlane.ds_swizzle": lower_ds_swizzle,
    "xlane.ds_bpermute": lower_ds_bpermute,
    "xlane.readfirstlane": lower_readfirstlane,
    "xlane.shuffle_xor": lower_shuffle_xor,
}
