"""column_group: the lane-xor masks joining the lanes that hold one column of the C tile (one query
row of S^T), checked against the catalog's coordinates lane by lane; a catalog row's group is
remembered, a changed copy of a row gets its own."""

from __future__ import annotations

import dataclasses

import pytest

from rocke.arch import MMA_OPS, MmaOp, mma_op
from rocke.arch.layout_expr import parse_layout_expr
from rocke_library.kernels.attention.common.softmax import column_group


@pytest.mark.parametrize("op", MMA_OPS, ids=[op.id for op in MMA_OPS])
def test_the_masks_join_exactly_the_lanes_of_a_column(op: MmaOp) -> None:
    masks = column_group(op)
    assert masks is not None and column_group(op) is masks  # remembered: the same tuple
    cols = [op.c.coords(lane, 0)[1] for lane in range(op.wave_size)]
    for lane in range(op.wave_size):
        joined = {lane}
        for mask in masks:
            joined |= {other ^ mask for other in joined}
        assert joined == {other for other in range(op.wave_size) if cols[other] == cols[lane]}


def test_a_changed_copy_of_a_row_gets_its_own_group() -> None:
    row, other = mma_op("mfma_f32_32x32x8_f16"), mma_op("mfma_f32_16x16x16_f16")
    assert column_group(row) == (32,)  # remembered before the copy asks
    # The copy keeps the row's id; a group remembered by id would be the row's (32,).
    copy = dataclasses.replace(row, c=other.c)
    assert column_group(copy) == (16, 32)
    assert column_group(row) == (32,)


def test_a_column_with_a_slot_offset_keeps_the_lanes_group() -> None:
    """mma.sync's C column is the lane's (lane % 4 * 2) plus an offset of the slot (slot % 2): the
    lanes of a column are the same for every slot, so the group is the lanes sharing lane % 4."""
    op = mma_op("mma_sync_f32_16x8x16_f16")
    assert [op.c.coords(0, s)[1] for s in range(op.c.length)] == [0, 1, 0, 1]
    assert column_group(op) == (4, 8, 16)


def test_a_slot_offset_that_names_another_lanes_column_has_no_group() -> None:
    """A column a lane holds at slot offset 1 that another lane holds at offset 0 (lane % 4 + slot % 2)
    would need both in one reduction: no group."""
    row = mma_op("mma_sync_f32_16x8x16_f16")
    col = "lane % 4 + slot % 2"
    c = dataclasses.replace(row.c, col=col, col_expr=parse_layout_expr(col))
    assert column_group(dataclasses.replace(row, c=c)) is None
