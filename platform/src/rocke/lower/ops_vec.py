"""Lowering of vec.* element ops and mma.mma."""

from __future__ import annotations

from rocke.arch import mma_intrinsic_def, mma_op
from rocke.ir.core import Op

from .emitter import FunctionEmitter
from .llvm_types import lanes_of, llvm_type


def lower_extract(em: FunctionEmitter, op: Op) -> None:
    em.emit(f"{em.bind(op.results[0])} = extractelement {em.typed(op.operands[0])}, i32 {op.attrs['index']}")


def lower_insert(em: FunctionEmitter, op: Op) -> None:
    v, x = op.operands
    em.emit(f"{em.bind(op.results[0])} = insertelement {em.typed(v)}, {em.typed(x)}, i32 {op.attrs['index']}")


def lower_splat(em: FunctionEmitter, op: Op) -> None:
    """insertelement into lane 0 of poison, then a zero-mask shufflevector."""
    result = op.results[0]
    ty = llvm_type(result.type)
    lanes = lanes_of(result.type)
    first = em.temp()
    em.emit(f"{first} = insertelement {ty} poison, {em.typed(op.operands[0])}, i64 0")
    em.emit(f"{em.bind(result)} = shufflevector {ty} {first}, {ty} poison, <{lanes} x i32> zeroinitializer")


def lower_mma(em: FunctionEmitter, op: Op) -> None:
    """The catalog intrinsic with the catalog's immediates; operands whose rocke.ir type is spelled
    differently from the intrinsic's (bf16 as i16) are bitcast."""
    op_id = str(op.attrs["op_id"])
    catalog = mma_op(op_id)
    decl = em.declare(mma_intrinsic_def(op_id))
    args = []
    for value, want in zip(op.operands, decl.arg_types[:3], strict=True):
        if llvm_type(value.type) == want:
            args.append(em.ref(value))
        else:
            cast = em.temp()
            em.emit(f"{cast} = bitcast {em.typed(value)} to {want}")
            args.append(cast)
    args += [str(imm.value) for imm in catalog.imm_operands]
    result = op.results[0]
    result_type = llvm_type(result.type)
    if decl.ret == result_type:
        em.call(decl, args, em.bind(result))
        return
    raw = em.temp()
    em.call(decl, args, raw)
    em.emit(f"{em.bind(result)} = bitcast {decl.ret} {raw} to {result_type}")


LOWERINGS = {
    "vec.extract": lower_extract,
    "vec.insert": lower_insert,
    "vec.splat": lower_splat,
    "mma.mma": lower_mma,
}
