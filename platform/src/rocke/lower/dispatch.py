"""The lowering of each opcode, per target: the shared tables (ops every target lowers alike) merged
with the target's own table per dialect. The amdgcn tables are the ops_* modules of this package
(their LOWERINGS), the nvptx tables the modules of rocke.lower.nvptx. A new target is one more
entry of TARGET_TABLES: its tables for gpu, mem (buffers, atomics), xlane, sync and math."""

from __future__ import annotations

from collections.abc import Callable

from rocke.ir.core import Op

from . import ops_arith, ops_gpu, ops_math, ops_mem, ops_mma, ops_scf, ops_sync, ops_vec, ops_xlane
from .emitter import FunctionEmitter
from .nvptx import ops_gpu as nvptx_gpu
from .nvptx import ops_math as nvptx_math
from .nvptx import ops_mem as nvptx_mem
from .nvptx import ops_sync as nvptx_sync
from .nvptx import ops_xlane as nvptx_xlane

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


SHARED_TABLES: tuple[dict[str, Lowering], ...] = (
    ops_arith.LOWERINGS,
    ops_mem.SHARED_LOWERINGS,
    ops_sync.SHARED_LOWERINGS,
    ops_mma.LOWERINGS,
    ops_vec.LOWERINGS,
    ops_scf.LOWERINGS,
)

# target name (rocke/arch/data/targets.toml) -> its own tables, one per dialect.
TARGET_TABLES: dict[str, tuple[dict[str, Lowering], ...]] = {
    "amdgcn": (ops_math.LOWERINGS, ops_gpu.LOWERINGS, ops_mem.LOWERINGS, ops_xlane.LOWERINGS, ops_sync.LOWERINGS),
    "nvptx": (nvptx_math.LOWERINGS, nvptx_gpu.LOWERINGS, nvptx_mem.LOWERINGS, nvptx_xlane.LOWERINGS,
              nvptx_sync.LOWERINGS),
}

LOWERINGS_BY_TARGET: dict[str, dict[str, Lowering]] = {
    target: merge_lowerings(*SHARED_TABLES, *tables) for target, tables in TARGET_TABLES.items()
}
# The amdgcn target's table (the first target; kept under its historical name).
LOWERINGS: dict[str, Lowering] = LOWERINGS_BY_TARGET["amdgcn"]


def lower_op(em: FunctionEmitter, op: Op) -> None:
    LOWERINGS_BY_TARGET[em.target.name][op.opcode](em, op)
