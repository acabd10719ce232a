"""Online softmax over the C fragments of S^T = K Q^T, in the exp2 domain with f32 statistics.

The kernels compute S transposed, so one query row is one column of the MMA's C tile: a lane's
slots belong to one query per query repeat (on mma.sync, whose C column is the lane's plus an
offset of the slot, to one query per such offset) and the lanes sharing a column hold the other
keys of that row. column_group() finds, from the catalog's C layout, the lane-xor masks joining
those lanes; a row max or sum is a lane-local reduction followed by shuffle-xor over the group.

Scores arrive already multiplied by scale * log2(e) (folded once) and set to -inf where masked.
Per key block: m_new = max(m, rowmax(s)); with m_use = m_new, or 0 while no key was visible
(so exp2(-inf - m_use) = 0, never NaN): p = exp2(s - m_use), alpha = exp2(m - m_use),
l = l * alpha + sum(p) and O = O * alpha + P V. l stays a per-lane partial sum (alpha is the same
on every lane of a group) and is reduced once at the end. finalize: O / l and
LSE = (m + log2 l) * ln 2 (natural log); a row with l = 0 saw no key: O = 0, LSE = -inf.
"""

from __future__ import annotations

from rocke.arch import MmaOp, is_catalog_row
from rocke.helpers import combine, f32_const
from rocke.ir import Builder, Value

LOG2E = 1.4426950408889634  # log2(e)
LN2 = 0.6931471805599453  # ln(2)


# Groups of catalog rows, by (id(op), axis): the rows live as long as the process.
_GROUPS: dict[tuple[int, int], tuple[int, ...] | None] = {}
COL, ROW = 1, 0  # the C coordinate a group shares: a column (S^T: a query) or a row (S: a query)


def column_group(op: MmaOp) -> tuple[int, ...] | None:
    """The lane-xor masks (ascending powers of two) joining the lanes whose C slots share a column,
    or None when a slot's column is not the lane's column (at slot 0) plus an offset of the slot, when
    two (lane column, slot offset) pairs name one column, or when the lanes of a column are not such
    a group."""
    return _group(op, COL)


def row_group(op: MmaOp) -> tuple[int, ...] | None:
    """The same for the lanes whose C slots share a row (S = Q K^T: one query row is one row of C)."""
    return _group(op, ROW)


def _group(op: MmaOp, axis: int) -> tuple[int, ...] | None:
    # A group depends on the op's C layout only, and takes wave x slots coordinates: a catalog
    # row's group is found once (every attention_fwd config asks).
    if not is_catalog_row(op):
        return _group_uncached(op, axis)
    key = (id(op), axis)
    if key not in _GROUPS:
        _GROUPS[key] = _group_uncached(op, axis)
    return _GROUPS[key]


def _group_uncached(op: MmaOp, axis: int) -> tuple[int, ...] | None:
    c = op.c
    cols = [c.coords(lane, 0)[axis] for lane in range(op.wave_size)]
    offsets = [c.coords(0, s)[axis] - cols[0] for s in range(c.length)]
    for lane in range(op.wave_size):
        if any(c.coords(lane, s)[axis] != cols[lane] + offsets[s] for s in range(c.length)):
            return None
    pairs = {(col, offset) for col in cols for offset in offsets}
    if len({col + offset for col, offset in pairs}) != len(pairs):
        return None
    masks = []
    bit = 1
    while bit < op.wave_size:
        if all(cols[lane ^ bit] == cols[lane] for lane in range(op.wave_size)):
            masks.append(bit)
        bit *= 2
    for lane in range(op.wave_size):
        members = {lane ^ m for m in _subset_xors(masks)}
        if members != {other for other in range(op.wave_size) if cols[other] == cols[lane]}:
            return None
    return tuple(masks)


def _subset_xors(masks: list[int]) -> list[int]:
    values = [0]
    for m in masks:
        values += [v ^ m for v in values]
    return values


def group_reduce(b: Builder, x: Value, kind: str, masks: tuple[int, ...], *, name: str | None = None) -> Value:
    """Reduce x ("add" or "max") over the lanes joined by the xor masks; every lane gets the result."""
    for mask in masks:
        x = combine(b, kind, x, b.shuffle_xor(x, mask), name=name)
    return x


def online_update(b: Builder, scores: list[Value], m_old: Value, l_old: Value, masks: tuple[int, ...]
                  ) -> tuple[list[Value], Value, Value, Value]:
    """One key block of one query row: (p per score, m_new, l_new, alpha) from the lane's scaled,
    masked scores (f32 scalars), the running max m_old and the lane's partial sum l_old."""
    tile_max = scores[0]
    for s in scores[1:]:
        tile_max = b.maxf(tile_max, s)
    tile_max = group_reduce(b, tile_max, "max", masks, name="tile_max")
    m_new = b.maxf(m_old, tile_max, name="m_new")
    none_seen = b.cmpf("oeq", m_new, f32_const(b, float("-inf"), 1))
    m_use = b.select(none_seen, f32_const(b, 0.0, 1), m_new, name="m_use")
    alpha = b.exp2(b.sub(m_old, m_use), name="alpha")
    probs = [b.exp2(b.sub(s, m_use), name="p") for s in scores]
    total = probs[0]
    for p in probs[1:]:
        total = b.add(total, p)
    l_new = b.fma(l_old, alpha, total, name="l_new")
    return probs, m_new, l_new, alpha


def finalize(b: Builder, m: Value, l_part: Value, masks: tuple[int, ...], *, lse_log2: bool = False
             ) -> tuple[Value, Value]:
    """(1 / l or 0, LSE in natural log or -inf) of a row from its max and the lane's partial sum.
    lse_log2 (tests only) leaves the LSE in log2 units."""
    l_total = group_reduce(b, l_part, "add", masks, name="l")
    seen = b.cmpf("ogt", l_total, f32_const(b, 0.0, 1))
    inv = b.select(seen, b.rcp(l_total), f32_const(b, 0.0, 1), name="inv_l")
    lse2 = b.add(m, b.log2(l_total))
    lse = lse2 if lse_log2 else b.mul(lse2, f32_const(b, LN2, 1))
    return inv, b.select(seen, lse, f32_const(b, float("-inf"), 1), name="lse")
