"""Lowering of math.* ops: llvm.exp2 / log2 / sqrt, and the approximate reciprocals (afn)."""

from __future__ import annotations

from rocke.arch import intrinsic_def
from rocke.ir.core import Op

from .emitter import FunctionEmitter
from .llvm_types import elem_of, lanes_of, splat_const

# Ops that are calls of an overloaded LLVM intrinsic (operands in order).
INTRINSICS = {
    "math.exp2": "llvm.exp2.{M}",
    "math.log2": "llvm.log2.{M}",
    "math.sqrt": "llvm.sqrt.{M}",
}


def lower_intrinsic(em: FunctionEmitter, op: Op) -> None:
    em.call_float(INTRINSICS[op.opcode], op)


def lower_rcp(em: FunctionEmitter, op: Op) -> None:
    """1 / x, approximate (afn: the hardware reciprocal, about 1 ulp)."""
    x = op.operands[0]
    em.emit(f"{em.bind(op.results[0])} = fdiv afn {em.llvm_type(x.type)} {splat_const(1.0, x.type)}, {em.ref(x)}")


def lower_rsqrt(em: FunctionEmitter, op: Op) -> None:
    """1 / sqrt(x), approximate (afn on both: hardware square root and reciprocal)."""
    x = op.operands[0]
    ty = em.llvm_type(x.type)
    decl = em.declare(intrinsic_def("llvm.sqrt.{M}"), elem_of(x.type).name, lanes_of(x.type))
    root = em.temp()
    em.emit(f"{root} = call afn {decl.ret} @{decl.name}({ty} {em.ref(x)})")
    em.emit(f"{em.bind(op.results[0])} = fdiv afn {ty} {splat_const(1.0, x.type)}, {root}")


LOWERINGS = {
    **{name: lower_intrinsic for name in INTRINSICS},
    "math.rcp": lower_rcp,
    "math.rsqrt": lower_rsqrt,
}
