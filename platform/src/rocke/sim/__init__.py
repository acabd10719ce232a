"""rocke.sim: a lockstep SIMT simulator of a KernelDef on numpy (numerics without a GPU).

    run(kernel, *, arch, grid, block, args, max_batch_lanes=..., check_races=True, atomic_order="wave",
        approx_rounding="nearest", mma_order="exact") -> RunInfo
    ATOMIC_ORDERS                                  the atomic_order values: run atomic kernels in each
    APPROX_ROUNDINGS                               the approx_rounding values ("nearest", "up", "down")
    MMA_ORDERS                                     the mma_order values ("exact", "forward", "reverse")
    compare(actual, expected, *, rtol, atol, name="result") -> Comparison
    assert_close(actual, expected, *, rtol, atol, name="result") -> Comparison

All lanes of a batch of workgroups run in lockstep on numpy arrays; control flow uses per-lane
masks; LDS is per workgroup; pointer params are bound to the caller's numpy arrays in place.
The semantics of every op are documented in platform/docs/simulator.md.
"""

from .compare import Comparison, assert_close, compare
from .errors import (
    DataRace,
    DivergenceError,
    LaunchError,
    MemoryFault,
    SimError,
    SimUnsupported,
    UndefinedBehavior,
    UninitializedRead,
)
from .launch import APPROX_ROUNDINGS, ATOMIC_ORDERS, DEFAULT_BATCH_LANES, MMA_ORDERS, RunInfo, run
from .registry import HANDLERS

__all__ = [
    "APPROX_ROUNDINGS",
    "ATOMIC_ORDERS",
    "DEFAULT_BATCH_LANES",
    "HANDLERS",
    "MMA_ORDERS",
    "Comparison",
    "DataRace",
    "DivergenceError",
    "LaunchError",
    "MemoryFault",
    "RunInfo",
    "SimError",
    "SimUnsupported",
    "UndefinedBehavior",
    "UninitializedRead",
    "assert_close",
    "compare",
    "run",
]
