"""scf.*: structured control flow over lane masks.

scf.if runs `then` for the active lanes whose condition holds and `else` for the others (a branch
no lane takes is skipped); each result is selected per lane from the branch that lane took.

scf.for needs lb, ub and step to be the same on all active lanes of a wave (else DivergenceError)
and step > 0 (else UndefinedBehavior). Different waves and workgroups may run different trip
counts: iteration k runs for the lanes with more than k trips, and a lane keeps its iteration
values once its own trips are done. trips = max(0, ceil((ub - lb) / step)), computed exactly,
so the induction variable never wraps.
"""

from __future__ import annotations

import numpy as np

from rocke.ir import Op

from .dtypes import numpy_dtype, to_signed
from .errors import DivergenceError, UndefinedBehavior
from .machine import Machine, Mask, handler_table
from .values import select, zeros_of

HANDLERS, handles = handler_table()


@handles("scf.if")
def _if(m: Machine, op: Op, mask: Mask):
    (cond,) = m.args(op)
    then_region, else_region = op.regions
    then_mask = mask.restrict(cond)
    else_mask = mask.restrict(~cond)
    then_values = m.exec_region(then_region, then_mask) if then_mask.any() else None
    else_values = m.exec_region(else_region, else_mask) if else_mask.any() else None
    if not op.results:
        return None
    if then_values is None:
        then_values = [zeros_of(v.type, m.lanes) for v in op.results]
    if else_values is None:
        else_values = [zeros_of(v.type, m.lanes) for v in op.results]
    return [select(cond, t, e) for t, e in zip(then_values, else_values, strict=True)]


def _wave_values(m: Machine, op: Op, values: np.ndarray, name: str, mask: Mask) -> np.ndarray:
    """The value of each wave's first active lane; every active lane of the wave must agree."""
    vw = m.by_wave(values)
    aw = m.by_wave(mask.bits)
    ref = vw[np.arange(vw.shape[0]), np.argmax(aw, axis=1)]
    bad = aw & (vw != ref[:, None])
    if bad.any():
        w, lane = (int(i) for i in np.argwhere(bad)[0])
        flat = w * m.arch.wave_size + lane
        m.fail(DivergenceError, op, f"'{name}' differs between the active lanes of a wave ({int(vw[w, lane])} here, "
                                    f"{int(ref[w])} on the wave's first active lane); loop bounds must be uniform",
               flat)
    return ref


def _trip_counts(m: Machine, op: Op, bounds: list[np.ndarray], mask: Mask) -> np.ndarray:
    """Per lane trip count (0 on inactive lanes), exact in Python integers. bounds: per-wave
    (lb, ub, step), already checked uniform."""
    active_waves = m.by_wave(mask.bits).any(axis=1)
    lb, ub, step = (b[active_waves].astype(np.int64) for b in bounds)
    bad = step <= 0
    if bad.any():
        w = int(np.flatnonzero(active_waves)[int(np.argmax(bad))])
        lane = w * m.arch.wave_size + int(np.argmax(m.by_wave(mask.bits)[w]))
        m.fail(UndefinedBehavior, op, f"step = {int(step[int(np.argmax(bad))])} is not positive", lane)
    # Usually every wave agrees: one exact division; otherwise one per distinct triple.
    triples = np.stack([lb, ub, step], axis=1)
    unique, inverse = np.unique(triples, axis=0, return_inverse=True)
    counts = np.asarray([max(0, -(-(high - low) // inc)) for low, high, inc in unique.tolist()], np.int64)
    per_wave = np.zeros(active_waves.shape[0], np.int64)
    per_wave[active_waves] = counts[inverse.reshape(-1)]
    return np.where(mask.bits, np.repeat(per_wave, m.arch.wave_size), 0)


@handles("scf.for")
def _for(m: Machine, op: Op, mask: Mask):
    lb, ub, step, *inits = m.args(op)
    ivty = op.operands[0].type
    lb, ub, step = (to_signed(x, ivty) for x in (lb, ub, step))
    bounds = [_wave_values(m, op, values, name, mask) for name, values in (("lb", lb), ("ub", ub), ("step", step))]
    trips = _trip_counts(m, op, bounds, mask)
    active_trips = trips[mask.lanes]
    most = int(active_trips.max()) if active_trips.size else 0
    same = active_trips.size == 0 or int(active_trips.min()) == most
    body = op.regions[0]
    values = list(inits)
    iv_dtype = numpy_dtype(ivty)
    lb64, step64 = lb.astype(np.int64), step.astype(np.int64)
    for k in range(most):
        # Every active lane iterates while k < its trip count; the iv stays below ub, so no wrap.
        iv = (lb64 + k * step64).astype(iv_dtype)
        if same:
            values = m.exec_region(body, mask, [iv, *values])
            continue
        running = trips > k
        yielded = m.exec_region(body, mask.restrict(running), [iv, *values])
        values = [select(running, new, old) for new, old in zip(yielded, values, strict=True)]
    return values
