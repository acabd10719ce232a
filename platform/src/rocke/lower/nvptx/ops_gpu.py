"""nvptx lowering of gpu.* ops: PTX special registers (%tid, %ctaid, %ntid, %laneid)."""

from __future__ import annotations

from rocke.ir.core import Op

from ..emitter import FunctionEmitter

# rocke.ir id kind -> PTX special register (PTX ISA "Special Registers").
SPECIAL_REGISTERS = {"thread_id": "tid", "block_id": "ctaid", "block_dim": "ntid"}


def read_sreg(em: FunctionEmitter, register: str, result: str | None) -> str:
    """result (a new temporary when None) = the special register %register."""
    result = result if result is not None else em.temp()
    em.call_named(f"llvm.nvvm.read.ptx.sreg.{register}", [], result)
    return result


def lower_sreg(em: FunctionEmitter, op: Op) -> None:
    kind, dim = op.opcode[len("gpu."):].rsplit("_", 1)
    read_sreg(em, f"{SPECIAL_REGISTERS[kind]}.{dim}", em.bind(op.results[0]))


def lower_lane_id(em: FunctionEmitter, op: Op) -> None:
    read_sreg(em, "laneid", em.bind(op.results[0]))


def lower_wave_id(em: FunctionEmitter, op: Op) -> None:
    """(x + ntid.x * (y + ntid.y * z)) >> log2(32): the warp of the flat thread index. Every lane of
    a warp computes the same value, so no broadcast is needed."""
    ids = [read_sreg(em, f"tid.{dim}", None) for dim in ("x", "y", "z")]
    dim_x = read_sreg(em, "ntid.x", None)
    dim_y = read_sreg(em, "ntid.y", None)
    zy, plane, row, flat = em.temp(), em.temp(), em.temp(), em.temp()
    em.emit(f"{zy} = mul i32 {dim_y}, {ids[2]}")
    em.emit(f"{plane} = add i32 {ids[1]}, {zy}")
    em.emit(f"{row} = mul i32 {dim_x}, {plane}")
    em.emit(f"{flat} = add i32 {ids[0]}, {row}")
    em.emit(f"{em.bind(op.results[0])} = lshr i32 {flat}, {em.arch.wave_size.bit_length() - 1}")


def lower_wave_size(em: FunctionEmitter, op: Op) -> None:
    em.alias(op.results[0], str(em.arch.wave_size))


LOWERINGS = {
    **{f"gpu.{kind}_{dim}": lower_sreg for kind in SPECIAL_REGISTERS for dim in ("x", "y", "z")},
    "gpu.lane_id": lower_lane_id,
    "gpu.wave_id": lower_wave_id,
    "gpu.wave_size": lower_wave_size,
}
