"""MMA layout formulas in IR: split a catalog formula f(lane, slot) into a lane part emitted once
as IR and per-slot constant offsets.

A formula is *separable* when f(lane, slot) - f(lane, 0) does not depend on the lane; every
formula of the catalog is. Then f(lane, slot) = f(lane, 0) + offset(slot): the lane part
(the formula with slot = 0, constant-folded) becomes a few IR ops and each slot adds a build-time
constant. Lane values are non-negative, so floor division and modulo emit as divu and remu.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rocke.arch import LayoutExpr
from rocke.ir import Builder, Value

from .index import const_i32

Node = tuple[Any, ...]  # ("int", v) | ("var", "lane" | "slot") | (op, left, right), op in + - * / %


@dataclass(frozen=True)
class SplitFormula:
    """f(lane, slot) = lane_part(lane) + slot_offsets[slot]."""

    source: str
    lane_part: Node  # the formula with slot = 0, constant-folded
    slot_offsets: tuple[int, ...]


def _fold(op: str, left: Node, right: Node) -> Node:
    if left[0] == "int" and right[0] == "int":
        a, c = left[1], right[1]
        value = {"+": a + c, "-": a - c, "*": a * c}.get(op)
        if value is None:
            value = a // c if op == "/" else a % c
        return ("int", value)
    if op == "*" and (left == ("int", 0) or right == ("int", 0)):
        return ("int", 0)
    if op in "/%" and left == ("int", 0):
        return ("int", 0)
    if op in "+-" and right == ("int", 0):
        return left
    if op == "+" and left == ("int", 0):
        return right
    if op in "*/" and right == ("int", 1):
        return left
    if op == "*" and left == ("int", 1):
        return right
    return (op, left, right)


def with_slot(node: Node, slot: int) -> Node:
    """The tree with slot replaced by a constant, constant-folded bottom up."""
    if node[0] == "int":
        return node
    if node[0] == "var":
        return ("int", slot) if node[1] == "slot" else node
    return _fold(node[0], with_slot(node[1], slot), with_slot(node[2], slot))


# A formula's split depends on its text, the wave size and the length only, and takes wave_size x
# length evaluations: each is made once per process (a kernel plans the same few MMA operands many
# times; C++ twin: the per-thread map in helpers/layout.cpp). A SplitFormula is immutable, so the
# callers share it.
_SPLITS: dict[tuple[str, int, int], SplitFormula | None] = {}


def split_formula(expr: LayoutExpr, wave_size: int, length: int) -> SplitFormula | None:
    """The separable split of a layout formula over lanes 0..wave_size-1 and slots 0..length-1,
    or None when the formula is not separable."""
    key = (expr.source, wave_size, length)
    if key not in _SPLITS:
        _SPLITS[key] = _split_uncached(expr, wave_size, length)
    return _SPLITS[key]


def _split_uncached(expr: LayoutExpr, wave_size: int, length: int) -> SplitFormula | None:
    offsets = tuple(expr(lane=0, slot=s) - expr(lane=0, slot=0) for s in range(length))
    for lane in range(wave_size):
        base = expr(lane=lane, slot=0)
        for s in range(length):
            if expr(lane=lane, slot=s) - base != offsets[s]:
                return None
    return SplitFormula(expr.source, with_slot(expr.tree, 0), offsets)


def emit_lane_part(b: Builder, node: Node, lane: Value) -> Value:
    """IR computing a slot-free formula tree for this lane."""
    if node[0] == "int":
        return const_i32(b, node[1])
    if node[0] == "var":
        return lane
    left = emit_lane_part(b, node[1], lane)
    right = emit_lane_part(b, node[2], lane)
    op = node[0]
    if op == "+":
        return b.add(left, right)
    if op == "-":
        return b.sub(left, right)
    if op == "*":
        return b.mul(left, right)
    if op == "/":
        return b.divu(left, right)
    return b.remu(left, right)
