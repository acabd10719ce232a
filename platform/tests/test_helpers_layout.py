"""rocke.helpers.layout and mma_frag: catalog formulas split into IR lane parts plus slot offsets,
and fragment plans that read the same elements the catalog layouts name."""

from __future__ import annotations

import numpy as np
import pytest

from rocke.arch import MMA_OPS, mma_op, parse_layout_expr
from rocke.helpers import (
    emit_lane_part,
    fragment_base,
    load_fragment,
    plan_fragment,
    run_align,
    split_formula,
    store_fragment,
    with_slot,
)
from rocke.ir import Builder, f32, i32, ptr
from rocke.sim import run

OPERANDS = [(op.id, name) for op in MMA_OPS for name in ("a", "b", "c")]


def _eval(node: tuple, lane: int) -> int:
    if node[0] == "int":
        return node[1]
    if node[0] == "var":
        assert node[1] == "lane"
        return lane
    left, right = _eval(node[1], lane), _eval(node[2], lane)
    return {"+": left + right, "-": left - right, "*": left * right, "/": left // right if right else 0,
            "%": left % right if right else 0}[node[0]]


@pytest.mark.parametrize(("op_id", "operand"), OPERANDS)
def test_every_catalog_formula_is_separable(op_id: str, operand: str) -> None:
    op = mma_op(op_id)
    frag = op.operand(operand)
    for expr in (frag.row_expr, frag.col_expr):
        split = split_formula(expr, op.wave_size, frag.length)
        assert split is not None
        for lane in range(op.wave_size):
            for slot in range(frag.length):
                assert _eval(split.lane_part, lane) + split.slot_offsets[slot] == expr(lane=lane, slot=slot)


def test_a_formula_that_is_not_separable() -> None:
    assert split_formula(parse_layout_expr("lane * slot"), 64, 4) is None
    assert split_formula(parse_layout_expr("(lane + slot) / 4"), 64, 4) is None


def test_with_slot_folds() -> None:
    tree = parse_layout_expr("slot / 4 * 8 + lane / 32 * 4 + slot % 4").tree
    assert with_slot(tree, 0) == ("*", ("/", ("var", "lane"), ("int", 32)), ("int", 4))
    assert with_slot(parse_layout_expr("slot * 2 + 0 + lane * 1").tree, 3) == ("+", ("int", 6), ("var", "lane"))
    assert with_slot(parse_layout_expr("0 / lane + slot - 1").tree, 1) == ("int", 0)


@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
def test_emitted_lane_parts_match_the_formulas(arch: str) -> None:
    """Each catalog formula of an op of this arch's wave size, emitted as IR, gives every lane the
    value the formula gives (run on the simulator)."""
    wave = 64 if arch == "gfx942" else 32
    trees = []
    for op in MMA_OPS:
        if op.wave_size != wave:
            continue
        for name in ("a", "b", "c"):
            frag = op.operand(name)
            for expr in (frag.row_expr, frag.col_expr):
                trees.append(split_formula(expr, wave, frag.length).lane_part)
    b = Builder("lane_parts", max_workgroup_size=wave)
    out = b.param("out", ptr(i32, "global"))
    lane = b.lane_id()
    for t, tree in enumerate(trees):
        b.store(out, b.add(b.const(t * wave, i32), lane), emit_lane_part(b, tree, lane))
    got = np.zeros(len(trees) * wave, np.int32)
    run(b.finish(), arch=arch, grid=1, block=wave, args=[got])
    expected = [_eval(tree, lane) for tree in trees for lane in range(wave)]
    assert got.tolist() == expected


@pytest.mark.parametrize(("op_id", "operand"), [(op.id, name) for op in MMA_OPS for name in ("a", "b")])
@pytest.mark.parametrize("stride", [40, 33])
def test_fragment_runs_address_the_layout(op_id: str, operand: str, stride: int) -> None:
    """Every slot's LDS index from the plan's runs equals outer * stride + inner from the catalog
    coords (A: outer = row = m; B: outer = col = n; inner = k)."""
    op = mma_op(op_id)
    outer_is_row = operand == "a"
    plan = plan_fragment(op, operand, outer_is_row, stride)
    assert plan is not None
    frag = op.operand(operand)
    assert sum(run.lanes for run in plan.runs) == frag.length
    for lane in range(op.wave_size):
        base = _eval(plan.outer.lane_part, lane) * stride + _eval(plan.inner.lane_part, lane)
        for piece in plan.runs:
            for j in range(piece.lanes):
                row, col = frag.coords(lane, piece.slot + j)
                outer, inner = (row, col) if outer_is_row else (col, row)
                assert base + piece.offset + j == outer * stride + inner


@pytest.mark.parametrize("op_id", [op.id for op in MMA_OPS if op.kind != "mma_sync"])
def test_catalog_fragments_are_single_vector_loads(op_id: str) -> None:
    op = mma_op(op_id)
    for operand, outer_is_row in (("a", True), ("b", False)):
        plan = plan_fragment(op, operand, outer_is_row, 40)
        assert len(plan.runs) == 1 and plan.runs[0].lanes == op.operand(operand).length


@pytest.mark.parametrize("op_id", [op.id for op in MMA_OPS if op.kind == "mma_sync"])
def test_mma_sync_fragments_are_pairs(op_id: str) -> None:
    """mma.sync's fragments hold pairs of consecutive k (PTX ISA): A row-major in 4 runs of 2 (rows
    g and g + 8, k and k + 8), B k-major in 2 runs of 2."""
    op = mma_op(op_id)
    a = plan_fragment(op, "a", True, 40)
    b = plan_fragment(op, "b", False, 40)
    assert [r.lanes for r in a.runs] == [2, 2, 2, 2]
    assert [r.lanes for r in b.runs] == [2, 2]


def test_run_align() -> None:
    plan = plan_fragment(mma_op("mfma_f32_32x32x8_f16"), "a", True, 36)  # lanes start at k 0 or 4
    (run_,) = plan.runs
    assert run_align(plan, run_, 2, [36 * 64]) == 8
    odd = plan_fragment(mma_op("mfma_f32_32x32x8_f16"), "a", True, 33)
    assert run_align(odd, odd.runs[0], 2, []) == 2
    transposed = plan_fragment(mma_op("mfma_f32_16x16x16_f16"), "a", False, 40)
    assert [r.lanes for r in transposed.runs] == [1, 1, 1, 1]


@pytest.mark.parametrize("op_id", [op.id for op in MMA_OPS])
@pytest.mark.parametrize("outer_is_row", [True, False])
def test_fragment_store_and_load_round_trip(op_id: str, outer_is_row: bool) -> None:
    """Each lane builds its C fragment holding the flat index row * n + col of every element (from
    the plan), store_fragment writes it to a padded LDS tile ([m][n] or [n][m]), and the lanes copy
    the tile out; every element lands where the catalog layout says, and load_fragment reads each
    lane's fragment back unchanged."""
    op = mma_op(op_id)
    wave = op.wave_size
    stride = (op.n if outer_is_row else op.m) + 3
    lines = op.m if outer_is_row else op.n
    plan = plan_fragment(op, "c", outer_is_row, stride)
    b = Builder("frag_store", max_workgroup_size=wave)
    out = b.param("out", ptr(f32, "global"))
    back = b.param("back", ptr(f32, "global"))
    tile = b.lds_alloc(f32, lines * stride)
    lane = b.lane_id()
    row = emit_lane_part(b, split_formula(op.c.row_expr, wave, op.c.length).lane_part, lane)
    col = emit_lane_part(b, split_formula(op.c.col_expr, wave, op.c.length).lane_part, lane)
    rsplit = split_formula(op.c.row_expr, wave, op.c.length)
    csplit = split_formula(op.c.col_expr, wave, op.c.length)
    frag = b.splat(b.const(0.0, f32), op.c.length)
    flats = []
    for s in range(op.c.length):
        r = b.add(row, b.const(rsplit.slot_offsets[s], i32))
        c = b.add(col, b.const(csplit.slot_offsets[s], i32))
        flats.append(b.add(b.mul(r, b.const(op.n, i32)), c))
        frag = b.insert(frag, b.sitofp(flats[-1], f32), s)
    base = fragment_base(b, plan, lane, b.const(0, i32))
    store_fragment(b, tile, base, plan, 0, frag, f32, [])
    b.barrier()
    loaded = load_fragment(b, tile, base, plan, 0, f32, [])
    for s in range(op.c.length):
        b.store(back, flats[s], b.extract(loaded, s))
    inner = stride - 3
    for i in range(0, lines * inner, wave):  # copy out every element but the padding
        flat = b.add(lane, b.const(i, i32))
        index = b.add(b.mul(b.divu(flat, b.const(inner, i32)), b.const(stride, i32)), b.remu(flat, b.const(inner, i32)))
        inside = b.cmpi("slt", flat, b.const(lines * inner, i32))
        b.if_(inside, lambda flat=flat, index=index: b.store(out, flat, b.lds_load(tile, index)))
    got = np.full(lines * inner, -1.0, np.float32)
    got_back = np.full(lines * inner, -1.0, np.float32)
    run(b.finish(), arch=op.archs[0], grid=1, block=wave, args=[got, got_back])
    expected = np.arange(op.m * op.n, dtype=np.float32).reshape(op.m, op.n)
    assert got.reshape(lines, inner).tolist() == (expected if outer_is_row else expected.T).tolist()
    assert got_back.tolist() == expected.reshape(-1).tolist()  # load_fragment reads the same layout back
