"""The lowering of each opcode: one function per op, gathered from the ops_* modules."""

from __future__ import annotations

from collections.abc import Callable

from rocke.ir.core import Op

from . import ops_arith, ops_gpu, ops_mem, ops_scf, ops_vec, ops_xlane
from .emitter import FunctionEmitter

Lowering = Callable[[FunctionEmitter, Op], None]

LOWERINGS: dict[str, Lowering] = {
    **ops_arith.LOWERINGS,
    **ops_gpu.LOWERINGS,
    **ops_mem.LOWERINGS,
    **ops_xlane.LOWERINGS,
    **ops_vec.LOWERINGS,
    **ops_scf.LOWERINGS,
}


def lower_op(em: FunctionEmitter, op: Op) -> None:
    LOWERINGS[op.opcode](em, op)
