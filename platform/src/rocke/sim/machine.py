"""The lockstep interpreter: runs a region's ops over all lanes of a batch under an active mask.

Every op handler (one module per dialect, see registry.py) has the signature
`handler(machine, op, mask) -> tuple of result values | None`. Handlers read operands with
`machine.get(value)`, never modify an operand array in place, touch memory only for active lanes,
and report problems with `machine.fail(...)`, which names the op and the first offending thread.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NoReturn

import numpy as np

from rocke.arch import ArchTarget
from rocke.ir import KernelDef, Op, Region, Value

from .errors import SimError
from .geometry import Batch


class Mask:
    """The active lanes of a batch: a bool per lane, whether all lanes are active, their indices."""

    __slots__ = ("_lanes", "all", "bits")

    def __init__(self, bits: np.ndarray, all_active: bool | None = None) -> None:
        self.bits = bits
        self.all = bool(bits.all()) if all_active is None else all_active
        self._lanes: np.ndarray | None = None

    @property
    def lanes(self) -> np.ndarray:
        """Indices of the active lanes, ascending."""
        if self._lanes is None:
            self._lanes = np.flatnonzero(self.bits)
        return self._lanes

    def any(self) -> bool:
        return self.all or bool(self.bits.any())

    def restrict(self, cond: np.ndarray) -> Mask:
        """The active lanes where cond also holds."""
        return Mask(self.bits & cond)


Handler = Callable[["Machine", Op, Mask], Sequence[Any] | None]


class KernelInfo:
    """Facts about a kernel computed once per run: op paths and when values die."""

    def __init__(self, kernel: KernelDef) -> None:
        self.kernel = kernel
        self.paths: dict[int, str] = {}
        self.frees: dict[int, tuple[int, ...]] = {}
        self._walk(kernel.body, "body")

    def _walk(self, region: Region, path: str) -> set[int]:
        """Record paths and frees of region; returns the ids of values it uses from outside."""
        defined = {v.id for v in region.args}
        last_use: dict[int, int] = dict.fromkeys(defined, 0)  # an unused argument dies after the first op
        outside: set[int] = set()
        for index, op in enumerate(region.ops):
            op_path = f"{path}[{index}]"
            self.paths[id(op)] = op_path
            used = {v.id for v in op.operands}
            for number, inner in enumerate(op.regions):
                name = op.opdef.regions[number].name
                used |= self._walk(inner, f"{op_path}.{name}")
            for vid in used:
                last_use[vid] = index
            for value in op.results:
                defined.add(value.id)
                last_use.setdefault(value.id, index)  # never used: dies right away
        frees: dict[int, list[int]] = {}
        for vid, index in last_use.items():
            if vid in defined:
                frees.setdefault(index, []).append(vid)
            else:
                outside.add(vid)
        for index, vids in frees.items():
            self.frees[id(region.ops[index])] = tuple(sorted(vids))
        return outside


class Machine:
    """State of one batch: value environment, memory, barrier epochs."""

    def __init__(self, info: KernelInfo, arch: ArchTarget, batch: Batch, regions: list[Any],
                 handlers: dict[str, Handler], check_races: bool, atomic_order: str = "wave",
                 approx_skew: int = 0, mma_order: str = "exact") -> None:
        self.info = info
        self.arch = arch
        self.batch = batch
        self.lanes = batch.lanes
        self.regions = regions
        self.handlers = handlers
        self.check_races = check_races
        self.atomic_order = atomic_order  # one of launch.ATOMIC_ORDERS
        self.approx_skew = approx_skew  # 0 nearest, +1 up, -1 down (ops_math.approx)
        self.mma_order = mma_order  # one of launch.MMA_ORDERS
        self.env: dict[int, Any] = {}
        self.epoch = np.zeros(batch.groups, np.int32)  # barrier intervals passed, per workgroup
        # sync.wave_lds_fence ops passed, per wave of the batch; None until the first one runs
        self.wave_fence: np.ndarray | None = None
        self.lds_region_of: dict[int, int] = {}  # id(lds_alloc op) -> region index
        self.ops_executed = 0
        self.id_cache: dict[str, np.ndarray] = {}  # per-lane id arrays (ops_gpu)

    # ------------------------------------------------------------------ values
    def get(self, value: Value) -> Any:
        return self.env[value.id]

    def args(self, op: Op) -> list[Any]:
        env = self.env
        return [env[v.id] for v in op.operands]

    # ------------------------------------------------------------------ errors
    def where(self, op: Op) -> str:
        first = f" %{op.results[0].id}" if op.results else ""
        return f"{op.opcode}{first} at {self.info.paths[id(op)]}"

    def fail(self, cls: type[SimError], op: Op, what: str, lane: int | None = None) -> NoReturn:
        if lane is not None:
            what = f"{what} ({self.batch.describe(lane)})"
        raise cls(self.where(op), what)

    def failer(self, op: Op) -> Callable[[type[SimError], str, int | None], NoReturn]:
        """fail() bound to op, for helpers that do not know the op."""
        return lambda cls, what, lane: self.fail(cls, op, what, lane)

    # ------------------------------------------------------------------ execution
    def exec_region(self, region: Region, mask: Mask, args: Sequence[Any] = ()) -> list[Any]:
        """Run region's ops for the active lanes; returns the values its scf.yield passes on."""
        env = self.env
        for value, arg in zip(region.args, args, strict=True):
            env[value.id] = arg
        frees = self.info.frees
        handlers = self.handlers
        for op in region.ops:
            if op.opcode == "scf.yield":
                out = [env[v.id] for v in op.operands]
                self._free(frees.get(id(op), ()))
                return out
            results = handlers[op.opcode](self, op, mask)
            if results is not None:
                for value, result in zip(op.results, results, strict=True):
                    env[value.id] = result
            self.ops_executed += 1
            self._free(frees.get(id(op), ()))
        return []

    def _free(self, vids: tuple[int, ...]) -> None:
        env = self.env
        for vid in vids:
            env.pop(vid, None)

    # ------------------------------------------------------------------ per-wave views
    def by_wave(self, x: np.ndarray) -> np.ndarray:
        """(lanes, ...) -> (waves, wave_size, ...)."""
        ws = self.arch.wave_size
        return x.reshape((self.batch.waves, ws, *x.shape[1:]))


def handler_table() -> tuple[dict[str, Handler], Callable[..., Callable[[Handler], Handler]]]:
    """A dialect's handler dict and a decorator `@handles("op.name", ...)` filling it."""
    table: dict[str, Handler] = {}

    def handles(*names: str) -> Callable[[Handler], Handler]:
        def register(fn: Handler) -> Handler:
            for name in names:
                table[name] = fn
            return fn

        return register

    return table, handles
