"""Lowering of vec.* ops: element extract and insert, splat, bitcast."""

from __future__ import annotations

from rocke.ir.core import Op

from .emitter import FunctionEmitter
from .llvm_types import lanes_of


def lower_extract(em: FunctionEmitter, op: Op) -> None:
    em.emit(f"{em.bind(op.results[0])} = extractelement {em.typed(op.operands[0])}, i32 {op.attrs['index']}")


def lower_insert(em: FunctionEmitter, op: Op) -> None:
    v, x = op.operands
    em.emit(f"{em.bind(op.results[0])} = insertelement {em.typed(v)}, {em.typed(x)}, i32 {op.attrs['index']}")


def lower_splat(em: FunctionEmitter, op: Op) -> None:
    """insertelement into lane 0 of poison, then a zero-mask shufflevector."""
    result = op.results[0]
    ty = em.llvm_type(result.type)
    lanes = lanes_of(result.type)
    first = em.temp()
    em.emit(f"{first} = insertelement {ty} poison, {em.typed(op.operands[0])}, i64 0")
    em.emit(f"{em.bind(result)} = shufflevector {ty} {first}, {ty} poison, <{lanes} x i32> zeroinitializer")


def lower_bitcast(em: FunctionEmitter, op: Op) -> None:
    result = op.results[0]
    em.emit(f"{em.bind(result)} = bitcast {em.typed(op.operands[0])} to {em.llvm_type(result.type)}")


LOWERINGS = {
    "vec.extract": lower_extract,
    "vec.insert": lower_insert,
    "vec.splat": lower_splat,
    "vec.bitcast": lower_bitcast,
}
