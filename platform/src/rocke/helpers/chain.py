"""Chained MMAs: the C/D fragments of one MMA fed to the next MMA as its A or B operand, through
registers, when the catalog's layouts put every element of the next operand in the lane that
already holds it.

The first MMA's C tile spans `reps` atoms along the chained dimension: its rows when the next
operand is B (the rows of B are the next op's k), its columns when the next operand is A (the
columns of A are k). Those reps * atom elements split into steps of the next op's k. For every
step and every slot of the next operand, plan_chain looks for the (rep, C slot) holding the same
tile element in the same lane, the same for every lane; when one slot has no such source (e.g.
an operand the catalog replicates across lanes, as gfx11 WMMA does) there is no register path
and the caller goes through LDS. The decision is made from the layout data, never per arch.
"""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import MmaOp, is_catalog_row
from rocke.ir import Builder, ScalarType, Value

CHAIN_OPERANDS = ("a", "b")


@dataclass(frozen=True)
class ChainPlan:
    """picks[step][slot] = (rep, C slot) of the element the next operand's slot takes."""

    operand: str  # "a" or "b": which operand of the next MMA the C fragments become
    steps: int  # next-op k steps covered by the reps
    picks: tuple[tuple[tuple[int, int], ...], ...]


# Plans of two catalog rows, by (id(first), reps, id(nxt), operand): the rows live as long as the
# process, so their ids are never reused.
_PLANS: dict[tuple[int, int, int, str], ChainPlan | None] = {}


def plan_chain(first: MmaOp, reps: int, nxt: MmaOp, operand: str) -> ChainPlan | None:
    """The register path from `reps` C fragments of `first` (consecutive atoms along the chained
    dimension) to operand `operand` of `nxt`; None when the layouts do not allow one."""
    if operand not in CHAIN_OPERANDS:
        raise ValueError(f"unknown chained operand '{operand}'; expected one of: {', '.join(CHAIN_OPERANDS)}")
    # A plan depends on the two ops' layouts, reps and the operand only, and takes reps x wave x
    # slots lookups: a plan of two catalog rows is made once (every attention config plans its
    # op's chain).
    if not (is_catalog_row(first) and is_catalog_row(nxt)):
        return _plan_uncached(first, reps, nxt, operand)
    key = (id(first), reps, id(nxt), operand)
    if key not in _PLANS:
        _PLANS[key] = _plan_uncached(first, reps, nxt, operand)
    return _PLANS[key]


def _plan_uncached(first: MmaOp, reps: int, nxt: MmaOp, operand: str) -> ChainPlan | None:
    if first.wave_size != nxt.wave_size:
        return None
    chained = first.m if operand == "b" else first.n  # the C extent along the chained dimension
    other = nxt.n if operand == "b" else nxt.m
    if other != (first.n if operand == "b" else first.m) or (reps * chained) % nxt.k != 0:
        return None
    source: dict[tuple[int, int, int], tuple[int, int]] = {}  # (lane, row, col) of the C tile -> (rep, slot)
    for rep in range(reps):
        for lane in range(first.wave_size):
            for slot in range(first.c.length):
                row, col = first.c.coords(lane, slot)
                if operand == "b":
                    row += rep * chained
                else:
                    col += rep * chained
                source[(lane, row, col)] = (rep, slot)
    dest = nxt.operand(operand)
    steps = reps * chained // nxt.k
    picks: list[tuple[tuple[int, int], ...]] = []
    for step in range(steps):
        row_picks: list[tuple[int, int]] = []
        for slot in range(dest.length):
            pick: tuple[int, int] | None = None
            for lane in range(nxt.wave_size):
                row, col = dest.coords(lane, slot)
                if operand == "b":
                    row += step * nxt.k
                else:
                    col += step * nxt.k
                found = source.get((lane, row, col))
                if found is None or (pick is not None and found != pick):
                    return None
                pick = found
            assert pick is not None
            row_picks.append(pick)
        picks.append(tuple(row_picks))
    return ChainPlan(operand, steps, tuple(picks))


def chain_fragment(b: Builder, plan: ChainPlan, step: int, values: list[list[Value]], elem: ScalarType, *,
                   name: str | None = None) -> Value:
    """The next operand's fragment of `step`: values[rep][slot] are the C elements, already in the
    next operand's element type elem."""
    picks = plan.picks[step]
    frag = b.splat(b.const(0.0, elem), len(picks))
    for slot, (rep, source) in enumerate(picks):
        frag = b.insert(frag, values[rep][source], slot, name=name if slot == len(picks) - 1 else None)
    return frag
