"""Exceptions of rocke.sim. Every message is `WHERE: WHAT` in plain ASCII.

WHERE names the op as the verifier does (`OPNAME[ %FIRSTRESULT] at PATH`, e.g.
`mem.lds_load %40 at body[12].then[0]`), or `launch` / `param #I %ID` for launch problems.
WHAT says what went wrong and, for per-lane problems, the first offending thread as
`workgroup (X, Y, Z) thread (X, Y, Z)`.
"""

from __future__ import annotations


class SimError(RuntimeError):
    """A kernel cannot be simulated, or it did something a GPU would not define."""

    def __init__(self, where: str, what: str) -> None:
        self.where = where
        self.what = what
        super().__init__(f"{where}: {what}")


class LaunchError(SimError):
    """Bad launch: grid, block, arguments, arch limits (workgroup size, LDS)."""


class MemoryFault(SimError):
    """A global access outside its bound array, an LDS access outside its allocation, a buffer
    access that straddles num_records, or a write through a read-only binding."""


class UninitializedRead(SimError):
    """A load of LDS elements that no store has written."""


class DataRace(SimError):
    """Two waves of a workgroup touch the same LDS element, at least one writing, with no
    barrier between them."""


class DivergenceError(SimError):
    """A barrier with part of a workgroup masked off, an MMA with part of a wave masked off, or
    scf.for bounds that differ between the active lanes of a wave."""


class UndefinedBehavior(SimError):
    """An op whose result the IR leaves undefined for these operands (integer division by zero,
    a non-positive loop step, a shuffle mask beyond the wave, disagreeing MMA replicas)."""


class SimUnsupported(SimError):
    """A feature the simulator does not model (named in the message), never a silent guess."""
