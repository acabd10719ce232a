"""MMA fragments in LDS, from the catalog's lane/slot layouts.

An operand tile sits in LDS as lines of `stride` elements: A as [m][k], B as [n][k] (k
contiguous for both), so A's row formula and B's column formula pick the line ("outer") and the
k formula the element within it ("inner"). Consecutive slots that step +1 along the line form a
*run*, moved by one vector LDS access; an A or B fragment is usually a single run. C/D fragments
plan the same way (outer = row for [m][n] tiles, outer = col for [n][m] tiles) and are written
with store_fragment.
"""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import MmaOp, MmaOperand
from rocke.ir import Builder, ScalarType, Value

from .index import add_i32, guaranteed_align, mul_i32
from .layout import SplitFormula, emit_lane_part, split_formula


@dataclass(frozen=True)
class FragmentRun:
    slot: int  # first slot of the run
    lanes: int  # consecutive slots in it
    offset: int  # element offset from the lane's base index: outer_offset * stride + inner_offset


@dataclass(frozen=True)
class FragmentPlan:
    """How one operand fragment is read from a [outer][stride] LDS tile."""

    operand: MmaOperand
    outer: SplitFormula
    inner: SplitFormula
    stride: int
    runs: tuple[FragmentRun, ...]
    inner_lane_values: tuple[int, ...]  # inner lane part of every lane (for alignment)


def plan_fragment(op: MmaOp, name: str, outer_is_row: bool, stride: int) -> FragmentPlan | None:
    """Plan operand `name` ("a", "b" or "c") of op over lines of `stride` elements; None when a layout
    formula is not separable."""
    operand = op.operand(name)
    row = split_formula(operand.row_expr, op.wave_size, operand.length)
    col = split_formula(operand.col_expr, op.wave_size, operand.length)
    if row is None or col is None:
        return None
    outer, inner = (row, col) if outer_is_row else (col, row)
    runs: list[FragmentRun] = []
    for s in range(operand.length):
        if runs:
            last = runs[-1]
            same_line = outer.slot_offsets[s] == outer.slot_offsets[last.slot]
            if same_line and inner.slot_offsets[s] == inner.slot_offsets[last.slot] + (s - last.slot):
                runs[-1] = FragmentRun(last.slot, last.lanes + 1, last.offset)
                continue
        runs.append(FragmentRun(s, 1, outer.slot_offsets[s] * stride + inner.slot_offsets[s]))
    expr = operand.col_expr if outer_is_row else operand.row_expr
    lane_values = tuple(expr(lane=lane, slot=0) for lane in range(op.wave_size))
    return FragmentPlan(operand, outer, inner, stride, tuple(runs), lane_values)


def fragment_base(b: Builder, plan: FragmentPlan, lane: Value, line0: Value, *, name: str | None = None) -> Value:
    """Element index of slot 0 for this lane: (line0 + outer(lane)) * stride + inner(lane)."""
    line = b.add(line0, emit_lane_part(b, plan.outer.lane_part, lane))
    return b.add(mul_i32(b, line, plan.stride), emit_lane_part(b, plan.inner.lane_part, lane), name=name)


def run_align(plan: FragmentPlan, run: FragmentRun, esize: int, multiples: list[int]) -> int:
    """Byte alignment of a run's LDS load: what the stride, the lanes' inner offsets, the run offset
    and the caller's other index terms (multiples, in elements) guarantee, at most 16 bytes."""
    terms = [plan.stride, run.offset, *plan.inner_lane_values, *multiples]
    return guaranteed_align(esize, min(16, run.lanes * esize), terms)


def load_fragment(
    b: Builder,
    lds: Value,
    base: Value,
    plan: FragmentPlan,
    extra: int,
    elem: ScalarType,
    multiples: list[int],
    *,
    name: str | None = None,
) -> Value:
    """The fragment at element index base + extra (extra: a build-time offset such as the k step),
    one vector LDS load per run. multiples: element counts every other term of base is a multiple
    of (for the alignment promise)."""
    esize = elem.bits // 8
    length = plan.operand.length
    parts: list[Value] = []
    for run in plan.runs:
        align = run_align(plan, run, esize, [*multiples, extra])
        index = add_i32(b, base, extra + run.offset)
        parts.append(b.lds_load(lds, index, lanes=run.lanes, align=align,
                                name=name if len(plan.runs) == 1 else None))
    if len(plan.runs) == 1:
        return parts[0]
    frag = b.splat(b.const(0.0, elem), length)
    for run, part in zip(plan.runs, parts, strict=True):
        for j in range(run.lanes):
            element = part if run.lanes == 1 else b.extract(part, j)
            frag = b.insert(frag, element, run.slot + j)
    return frag



def store_fragment(
    b: Builder,
    lds: Value,
    base: Value,
    plan: FragmentPlan,
    extra: int,
    value: Value,
    elem: ScalarType,
    multiples: list[int],
) -> None:
    """Write a fragment (vec<elem x length>) to LDS at element index base + extra, one vector LDS
    store per run; the mirror of load_fragment."""
    esize = elem.bits // 8
    for run in plan.runs:
        index = add_i32(b, base, extra + run.offset)
        if run.lanes == 1:
            b.lds_store(lds, index, b.extract(value, run.slot))
            continue
        part = value
        if run.lanes != plan.operand.length:
            part = b.splat(b.const(0.0, elem), run.lanes)
            for j in range(run.lanes):
                part = b.insert(part, b.extract(value, run.slot + j), j)
        b.lds_store(lds, index, part, align=run_align(plan, run, esize, [*multiples, extra]))
