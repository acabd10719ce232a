"""Lowering of gpu.* ops: work-item and workgroup ids, workgroup sizes, lane and wave ids."""

from __future__ import annotations

from rocke.ir.core import Op

from .emitter import FunctionEmitter

# Workgroup size of each dimension: (byte offset, alignment) of the u16 field of the HSA kernel
# dispatch packet (hsa_kernel_dispatch_packet_t: workgroup_size_x/y/z at bytes 4, 6, 8; the packet
# is 64-byte aligned).
DISPATCH_WORKGROUP_SIZE = {"x": (4, 4), "y": (6, 2), "z": (8, 8)}


def lower_id(em: FunctionEmitter, op: Op) -> None:
    kind, dim = op.opcode[len("gpu."):].rsplit("_", 1)
    name = "llvm.amdgcn.workitem.id." if kind == "thread_id" else "llvm.amdgcn.workgroup.id."
    em.call_named(name + dim, [], em.bind(op.results[0]))


def emit_block_dim(em: FunctionEmitter, dim: str, result: str | None) -> str:
    """result (a new temporary when None) = the workgroup size in dimension dim, read from the
    dispatch packet."""
    offset, align = DISPATCH_WORKGROUP_SIZE[dim]
    packet, field, size = em.temp(), em.temp(), em.temp()
    if result is None:
        result = em.temp()
    constant = em.pointer_text("constant")
    em.call_named("llvm.amdgcn.dispatch.ptr", [], packet)
    em.emit(f"{field} = getelementptr inbounds i8, {constant} {packet}, i64 {offset}")
    em.emit(f"{size} = load i16, {constant} {field}, align {align}")
    em.emit(f"{result} = zext i16 {size} to i32")
    return result


def lower_block_dim(em: FunctionEmitter, op: Op) -> None:
    emit_block_dim(em, op.opcode[-1], em.bind(op.results[0]))


def emit_lane_id(em: FunctionEmitter, result: str | None) -> str:
    """result (a new temporary when None) = the lane index: mbcnt over an all-ones mask counts the
    lanes below this one."""
    if em.arch.wave_size == 32:
        result = result if result is not None else em.temp()
        em.call_named("llvm.amdgcn.mbcnt.lo", ["-1", "0"], result)
        return result
    low = em.temp()
    result = result if result is not None else em.temp()
    em.call_named("llvm.amdgcn.mbcnt.lo", ["-1", "0"], low)
    em.call_named("llvm.amdgcn.mbcnt.hi", ["-1", low], result)
    return result


def lower_lane_id(em: FunctionEmitter, op: Op) -> None:
    emit_lane_id(em, em.bind(op.results[0]))


def lower_wave_id(em: FunctionEmitter, op: Op) -> None:
    """(x + dim_x * (y + dim_y * z)) >> log2(wave_size), made uniform with readfirstlane."""
    ids = []
    for dim in ("x", "y", "z"):
        ids.append(em.temp())
        em.call_named("llvm.amdgcn.workitem.id." + dim, [], ids[-1])
    dim_x = emit_block_dim(em, "x", None)
    dim_y = emit_block_dim(em, "y", None)
    zy, plane, row, flat, wave = em.temp(), em.temp(), em.temp(), em.temp(), em.temp()
    em.emit(f"{zy} = mul i32 {dim_y}, {ids[2]}")
    em.emit(f"{plane} = add i32 {ids[1]}, {zy}")
    em.emit(f"{row} = mul i32 {dim_x}, {plane}")
    em.emit(f"{flat} = add i32 {ids[0]}, {row}")
    em.emit(f"{wave} = lshr i32 {flat}, {em.arch.wave_size.bit_length() - 1}")
    em.call_named("llvm.amdgcn.readfirstlane.i32", [wave], em.bind(op.results[0]))


def lower_wave_size(em: FunctionEmitter, op: Op) -> None:
    em.alias(op.results[0], str(em.arch.wave_size))


LOWERINGS = {
    **{f"gpu.{kind}_{dim}": lower_id for kind in ("thread_id", "block_id") for dim in ("x", "y", "z")},
    **{f"gpu.block_dim_{dim}": lower_block_dim for dim in ("x", "y", "z")},
    "gpu.lane_id": lower_lane_id,
    "gpu.wave_id": lower_wave_id,
    "gpu.wave_size": lower_wave_size,
}
