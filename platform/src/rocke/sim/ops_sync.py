"""sync.*: workgroup barriers and wait counters.

A barrier must be reached by every thread of a workgroup or by none of them: with part of a
workgroup masked off (divergent control flow) a GPU deadlocks or runs ahead, so the simulator
reports it. A barrier starts a new LDS race-tracking interval for each workgroup that passes it.
Waits are no-ops: the simulator completes every memory access before the next op.
"""

from __future__ import annotations

import numpy as np

from rocke.ir import Op

from .errors import DivergenceError
from .machine import Machine, Mask, handler_table

HANDLERS, handles = handler_table()


@handles("sync.barrier")
def _barrier(m: Machine, op: Op, mask: Mask):
    b = m.batch
    lpg = b.launch.lanes_per_group
    active = mask.bits.reshape(b.groups, lpg)
    exists = b.exists.reshape(b.groups, lpg)
    count = active.sum(axis=1)
    partial = (count > 0) & (count < exists.sum(axis=1))
    if partial.any():
        g = int(np.argmax(partial))
        missing = int(np.argmax(exists[g] & ~active[g])) + g * lpg
        m.fail(DivergenceError, op, f"reached inside divergent control flow: {int(count[g])} of {b.launch.threads} "
                                    f"threads of {b.describe_group(g)} are active; first missing: "
                                    f"{b.describe(missing)}")
    m.epoch += count > 0
    return None


@handles("sync.wave_lds_fence")
def _wave_lds_fence(m: Machine, op: Op, mask: Mask):
    """Each wave with an active lane starts a new LDS race interval for its own lanes."""
    if m.wave_fence is None:
        m.wave_fence = np.zeros(m.batch.waves, np.int32)
    m.wave_fence += m.by_wave(mask.bits).any(axis=1)
    return None


@handles("sync.waitcnt")
def _waitcnt(m: Machine, op: Op, mask: Mask):
    return None
