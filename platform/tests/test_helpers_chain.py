"""rocke.helpers.chain: the register path from one MMA's C fragments to the next MMA's A or B
operand, decided from the catalog layouts and checked here element by element."""

from __future__ import annotations

import dataclasses

import pytest

from rocke.arch import MMA_OPS, MmaOp, is_catalog_row, mma_op
from rocke.helpers import ChainPlan, chain_fragment, plan_chain
from rocke.ir import Builder, f16, print_kernel, vec


def _holds_same_elements(first: MmaOp, reps: int, nxt: MmaOp, operand: str, plan: ChainPlan) -> bool:
    """Every (step, slot, lane) of the next operand names the C element at the same tile position."""
    for step in range(plan.steps):
        for slot, (rep, source) in enumerate(plan.picks[step]):
            for lane in range(nxt.wave_size):
                row, col = nxt.operand(operand).coords(lane, slot)
                crow, ccol = first.c.coords(lane, source)
                if operand == "b":
                    row, crow = row + step * nxt.k, crow + rep * first.m
                else:
                    col, ccol = col + step * nxt.k, ccol + rep * first.n
                if (row, col) != (crow, ccol):
                    return False
    return True


@pytest.mark.parametrize("op", MMA_OPS, ids=[op.id for op in MMA_OPS])
@pytest.mark.parametrize("reps", [1, 2, 4])
def test_plans_pick_the_same_elements(op: MmaOp, reps: int) -> None:
    for operand in ("a", "b"):
        plan = plan_chain(op, reps, op, operand)
        if plan is not None:
            assert plan.steps * op.k == reps * (op.m if operand == "b" else op.n)
            assert _holds_same_elements(op, reps, op, operand, plan)


@pytest.mark.parametrize(("op_id", "registers"), [
    ("mfma_f32_32x32x8_f16", True),
    ("mfma_f32_16x16x16_bf16", True),
    ("wmma_f32_16x16x16_f16_gfx12", True),
    ("mfma_f32_16x16x32_f16", False),  # 8 k per lane: the C slots of a lane hold only 4 rows
    ("mfma_f32_32x32x16_bf16", False),
    ("wmma_f32_16x16x16_f16_gfx11", False),  # B replicated over both half-waves
])
def test_c_to_b_register_path_follows_the_catalog(op_id: str, registers: bool) -> None:
    op = mma_op(op_id)
    assert (plan_chain(op, 2, op, "b") is not None) == registers
    assert plan_chain(op, 2, op, "a") is None  # C columns run over lanes, A's k over slots


@pytest.mark.parametrize("op_id", ["mma_sync_f32_16x8x16_f16", "mma_sync_f32_16x8x16_bf16"])
def test_mma_sync_chains_two_c_atoms_into_one_a_fragment(op_id: str) -> None:
    """The 16x8 atom (m != n): the C layout of two adjacent n = 8 atoms is the A layout of one
    16 x 16 tile (slots 0..3 from the first atom, 4..7 from the second), so C -> A has a register
    path; C -> B has none (B's k runs over lane % 4, C's rows over lane / 4)."""
    op = mma_op(op_id)
    for reps in (2, 4):
        plan = plan_chain(op, reps, op, "a")
        assert plan is not None and plan.steps == reps // 2
        for step in range(plan.steps):
            assert plan.picks[step] == tuple((2 * step + slot // 4, slot % 4) for slot in range(8))
        assert _holds_same_elements(op, reps, op, "a", plan)
    assert plan_chain(op, 1, op, "a") is None  # 8 columns do not fill one k step of 16
    assert plan_chain(op, 2, op, "b") is None


def test_a_catalog_rows_plan_is_remembered_and_a_copys_is_its_own() -> None:
    row = mma_op("mfma_f32_32x32x8_f16")
    assert is_catalog_row(row) and plan_chain(row, 2, row, "b") is plan_chain(row, 2, row, "b")
    # A copy with the row's id but another k is no catalog row: its plan is made for it, not the
    # one remembered for the row (a memo keyed by the id would hand that back).
    copy = dataclasses.replace(row, k=row.k * 2)
    assert not is_catalog_row(copy)
    own = plan_chain(copy, 2, copy, "b")
    assert own is not None and own.steps == 2 * row.m // copy.k
    assert _holds_same_elements(copy, 2, copy, "b", own)
    assert plan_chain(row, 2, row, "b").steps == 2 * row.m // row.k


def test_mismatched_ops_and_bad_operand() -> None:
    assert plan_chain(mma_op("mfma_f32_32x32x8_f16"), 1, mma_op("mfma_f32_16x16x16_f16"), "b") is None
    assert plan_chain(mma_op("mfma_f32_16x16x16_f16"), 1, mma_op("wmma_f32_16x16x16_f16_gfx12"), "b") is None
    with pytest.raises(ValueError, match="unknown chained operand 'c'"):
        plan_chain(mma_op("mfma_f32_16x16x16_f16"), 1, mma_op("mfma_f32_16x16x16_f16"), "c")


def test_chain_fragment_inserts_the_picked_values() -> None:
    op = mma_op("mfma_f32_16x16x16_f16")
    plan = plan_chain(op, 2, op, "b")
    assert plan is not None
    b = Builder("k")
    x = b.param("x", f16)
    values = [[b.add(x, b.const(float(r * 10 + s), f16)) for s in range(op.c.length)] for r in range(2)]
    frag = chain_fragment(b, plan, 1, values, f16, name="p")
    assert frag.type == vec(f16, op.b.length)
    text = print_kernel(b.finish(verify=False))
    assert text.count("vec.insert") == op.b.length
    # step 1 covers keys 16..31: the second repeat's C slots 0..3, in order
    assert list(plan.picks[1]) == [(1, 0), (1, 1), (1, 2), (1, 3)]
