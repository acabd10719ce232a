"""mma.mma: D = A * B + C of one wave, executed from the MMA catalog's fragment layouts.

For each wave, slot s of lane l of the A fragment is placed at A[row_a(l, s), col_a(l, s)] by the
catalog's layout formulas, likewise B and C; the tile product is formed and D is read back into
the C/D layout. A kernel that loads its fragments with a wrong layout therefore computes wrong
numbers, as on the GPU. Products of f16/bf16 values are exact; the K products and C are summed
in binary64 and rounded once to the f32 accumulator (the hardware's internal summation order
and rounding differ, so compare at a stated tolerance). run(mma_order="forward" / "reverse")
instead adds the products one at a time, each add rounded to the accumulator, k ascending or
descending: a test passing in all MMA_ORDERS has headroom for the hardware's order.

Where the catalog replicates an operand (gfx11 WMMA: lanes 16-31 repeat lanes 0-15), every copy
of an element must hold the same value; disagreeing copies are reported, since which copy the
hardware reads is not defined. An MMA needs the whole wave: partly active waves are reported.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from rocke.arch import MmaOperand, mma_op
from rocke.ir import Op

from .dtypes import numpy_dtype
from .errors import DivergenceError, UndefinedBehavior
from .machine import Machine, Mask, handler_table
from .rounding import F64, fma, round_f64

HANDLERS, handles = handler_table()


@cache
def _coords(op_id: str, operand: str) -> tuple[np.ndarray, np.ndarray]:
    """(rows, cols), each (wave_size, length): the tile position of every lane's slots."""
    frag: MmaOperand = mma_op(op_id).operand(operand)
    ws = mma_op(op_id).wave_size
    rows = np.empty((ws, frag.length), np.int64)
    cols = np.empty((ws, frag.length), np.int64)
    for lane in range(ws):
        for slot in range(frag.length):
            rows[lane, slot], cols[lane, slot] = frag.coords(lane, slot)
    return rows, cols


def _to_tile(m: Machine, op: Op, frag: np.ndarray, op_id: str, operand: str, shape: tuple[int, int],
             waves: np.ndarray) -> np.ndarray:
    """Scatter per-lane fragments (waves, wave_size, length) into tiles (waves, rows, cols)."""
    rows, cols = _coords(op_id, operand)
    wide = frag.astype(F64)
    tile = np.zeros((frag.shape[0], *shape), F64)
    tile[:, rows, cols] = wide
    if mma_op(op_id).operand(operand).replication > 1:
        back = tile[:, rows, cols]
        differ = (back != wide) & ~(np.isnan(back) & np.isnan(wide))
        if differ.any():
            w, lane, slot = (int(i) for i in np.argwhere(differ)[0])
            r, c = int(rows[lane, slot]), int(cols[lane, slot])
            m.fail(UndefinedBehavior, op, f"operand '{operand}' of {op_id} is replicated, but the copies of element "
                                          f"({r}, {c}) differ (lane {lane} slot {slot})",
                   int(waves[w]) * m.arch.wave_size + lane)
    return tile


def sequential_sum(ta: np.ndarray, tb: np.ndarray, tc: np.ndarray, dtype: np.dtype, reverse: bool) -> np.ndarray:
    """D = C + sum_k A[:, k] B[k, :], adding one exact product at a time with one rounding to the
    accumulator type each (k ascending, or descending): the least accurate order a summation of
    the k products can take, where the exact-sum default is the most accurate."""
    acc = round_f64(tc, dtype)
    ks = range(ta.shape[2])
    for kk in reversed(ks) if reverse else ks:
        acc = fma(ta[:, :, kk:kk + 1], tb[:, kk:kk + 1, :], acc, dtype)
    return acc


@handles("mma.mma")
def _mma(m: Machine, op: Op, mask: Mask):
    a, b, c = m.args(op)
    op_id = str(op.attrs["op_id"])
    entry = mma_op(op_id)
    rty = op.results[0].type
    ws = m.arch.wave_size
    active = m.by_wave(mask.bits)
    count = active.sum(axis=1)
    exists = m.by_wave(m.batch.exists)
    partial = (count > 0) & (count < ws)
    if partial.any():
        w = int(np.argmax(partial))
        short = "padding lanes past the workgroup's last thread" if not exists[w].all() else "masked-off lanes"
        first_off = w * ws + int(np.argmax(~active[w]))
        m.fail(DivergenceError, op, f"{m.batch.describe_wave(w)} has {int(count[w])} of {ws} lanes active "
                                    f"({short}); an MMA needs the whole wave", first_off)
    waves = np.flatnonzero(count)
    out = np.zeros(c.shape, c.dtype)
    if waves.size == 0:
        return (out,)
    aw, bw, cw = (m.by_wave(x)[waves] for x in (a, b, c))
    ta = _to_tile(m, op, aw, op_id, "a", (entry.m, entry.k), waves)
    tb = _to_tile(m, op, bw, op_id, "b", (entry.k, entry.n), waves)
    tc = _to_tile(m, op, cw, op_id, "c", (entry.m, entry.n), waves)
    dtype = numpy_dtype(rty)
    if np.issubdtype(dtype, np.integer):
        td = (ta.astype(np.int64) @ tb.astype(np.int64) + tc.astype(np.int64)).astype(dtype)
    elif m.mma_order == "exact":
        td = round_f64(ta @ tb + tc, dtype)
    else:
        td = sequential_sum(ta, tb, tc, dtype, reverse=m.mma_order == "reverse")
    rows, cols = _coords(op_id, "c")
    ow = m.by_wave(out)
    ow[waves] = td[:, rows, cols]
    return (out,)
