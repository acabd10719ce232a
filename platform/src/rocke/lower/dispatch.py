"""The lowering of each opcode: one function per op, gathered from the ops_* modules (one per dialect)."""

from __future__ import annotations

from collections.abc import Callable

from rocke.ir.core import Op

from . import ops_arith, ops_gpu, ops_math, ops_mem, ops_mma, ops_scf, ops_sync, ops_vec, ops_xlane
from .emitter import FunctionEmitter

Lowering = Callable[[FunctionEmitter, Op], None]


def merge_lowerings(*tables: dict[str, Lowering]) -> dict[str, Lowering]:
    """The tables as one; an opcode in two of them is an error (no table silently wins)."""
    merged: dict[str, Lowering] = {}
    for table in tables:
        for opcode, lowering in table.items():
            if opcode in merged:
                raise ValueError(f"two lowerings for '{opcode}'")
            merged[opcode] = lowering
    return merged


LOWERINGS: dict[str, Lowering] = merge_lowerings(
    ops_arith.LOWERINGS,
    ops_math.LOWERINGS,
    ops_gpu.LOWERINGS,
    ops_mem.LOWERINGS,
    ops_xlane.LOWERINGS,
    ops_sync.LOWERINGS,
    ops_mma.LOWERINGS,
    ops_vec.LOWERINGS,
    ops_scf.LOWERINGS,
)


def lower_op(em: FunctionEmitter, op: Op) -> None:
    LOWERINGS[op.opcode](em, op)
