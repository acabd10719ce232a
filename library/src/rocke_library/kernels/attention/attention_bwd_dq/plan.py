"""Host-time plan of an attention_bwd_dq kernel on one arch: every derived number, and the arch
refusals (atom not on the arch, workgroup too large, tiles that do not split, LDS over capacity).

Wave w owns query rows w * block_m / waves .. of the block and keeps their Q^T and dO^T B
fragments in registers (read once from global memory), or with qdo_lds reads them at every key
block from LDS tiles [block_m][head_dim + pad] filled once before the key loop. Per key block, K
and V sit in LDS as [block_n][head_dim + pad] and

    S^T = K Q^T, dP^T = V dO^T   A = K / V rows (k = head_dim contiguous)
    dQ^T += K^T dS^T             A = K^T (read down the K tile's lines), B = dS^T

The C fragments of dS^T (rows = keys) become the B operand of dQ^T (k = keys) in registers where
rocke.helpers.plan_chain finds the path, else through each wave's rows of an LDS tile
[block_m][block_n + pad].

A C column (one query) may depend on the slot as an offset added to the lane's column (mma.sync:
lane % 4 * 2 + slot % 2): the slots of one offset form a query class, and the kernel keeps one
query row (LSE2, D, visible keys) per query repeat and class.
"""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import ArchTarget, MmaOp
from rocke.helpers import (
    ChainPlan,
    FragmentPlan,
    PaddedTile,
    SplitFormula,
    TileSplit,
    elem_bytes,
    plan_chain,
    plan_fragment,
    split_formula,
    split_tile,
)

from .spec import AttentionBwdDqSpec

MAX_LDS_ALLOC_ELEMS = 65536  # mem.lds_alloc count limit


@dataclass(frozen=True)
class DqPlan:
    op: MmaOp
    threads: int
    q_reps: int  # atoms along the wave's query rows (C columns)
    key_reps: int  # S^T atoms along the key block (C rows)
    d_reps: int  # dQ^T atoms along head_dim (C rows)
    qk_steps: int  # k steps of S^T and dP^T (over head_dim)
    key_steps: int  # k steps of dQ^T (over the key block)
    k_tile: PaddedTile  # K and V: [block_n][head_dim + pad]
    ds_tile: PaddedTile | None  # None: dS^T through registers
    q_tile: PaddedTile | None  # qdo_lds: Q and dO, [block_m][head_dim + pad]; None: in registers
    kv_copy: TileSplit
    qdo_copy: TileSplit | None  # qdo_lds: the Q / dO tile copy
    k_frag: FragmentPlan  # K / V as the A operand of S^T / dP^T
    kt_frag: FragmentPlan  # K^T as the A operand of dQ^T
    ds_store: FragmentPlan | None  # LDS path: the dS^T C fragment into the dS tile
    ds_load: FragmentPlan | None  # LDS path: the dS^T B fragment
    qt_frag: FragmentPlan | None  # qdo_lds: the Q^T / dO^T B fragment from its tile
    chain: ChainPlan | None  # register path
    b_row: SplitFormula  # B (Q^T / dO^T) fragment: head_dim index
    b_col: SplitFormula  # B fragment: query index
    c_row: SplitFormula  # C fragment: key (S^T) or head_dim (dQ^T) index
    c_col: SplitFormula  # C fragment: query index
    col_offsets: tuple[int, ...]  # the C column offsets of the slots (query classes), ascending
    col_slots: tuple[tuple[int, ...], ...]  # the C slots of each class
    lds_bytes: int


def plan_dq(spec: AttentionBwdDqSpec, target: ArchTarget) -> DqPlan:
    """The plan, or SpecError for a spec the arch refuses."""
    op = spec.atom()
    if target.mma_signature(spec.op_id) is None:
        spec.fail("op_id", f"is not available on {target.name} (it runs on {', '.join(op.archs)})")
    threads = spec.threads
    if threads > target.max_workgroup_size:
        spec.fail("waves", f"{spec.waves} waves of {op.wave_size} lanes exceed the {target.max_workgroup_size}-thread "
                           f"workgroup limit of {target.name}")
    esize = elem_bytes(spec.dtype)
    kv_copy = split_tile(spec.block_n, spec.head_dim, threads, esize)
    if kv_copy is None:
        spec.fail("block_n", f"the K / V tile of {spec.block_n} x {spec.head_dim} elements does not split evenly "
                             f"over {threads} threads")
    assert kv_copy is not None
    q_tile = qdo_copy = None
    if spec.qdo_lds:
        qdo_copy = split_tile(spec.block_m, spec.head_dim, threads, esize)
        if qdo_copy is None:
            spec.fail("block_m", f"the Q / dO tile of {spec.block_m} x {spec.head_dim} elements does not split "
                                 f"evenly over {threads} threads")
        q_tile = PaddedTile(spec.block_m, spec.head_dim, spec.lds_pad, 1)
    k_tile = PaddedTile(spec.block_n, spec.head_dim, spec.lds_pad, 1)
    key_reps = spec.block_n // op.m
    chain = plan_chain(op, key_reps, op, "b")
    ds_tile = None if chain is not None else PaddedTile(spec.block_m, spec.block_n, spec.lds_pad, 1)
    used = [("K", k_tile), ("V", k_tile)] + ([("Q", q_tile), ("dO", q_tile)] if q_tile is not None else [])
    used += [("dS", ds_tile)] if ds_tile is not None else []
    for _, tile in used:
        if tile.count > MAX_LDS_ALLOC_ELEMS:
            spec.fail("block_n", f"an LDS tile holds {tile.count} elements, over the allocation limit of "
                                 f"{MAX_LDS_ALLOC_ELEMS}")
    lds_bytes = sum(tile.nbytes(esize) for _, tile in used)
    if lds_bytes > target.lds_bytes:
        names = ", ".join(label for label, _ in used)
        spec.fail("block_n", f"the LDS tiles ({names}) need {lds_bytes} bytes, over the {target.lds_bytes} bytes "
                             f"of {target.name}")
    k_frag = plan_fragment(op, "a", True, k_tile.stride)
    kt_frag = plan_fragment(op, "a", False, k_tile.stride)
    ds_store = ds_load = None
    if ds_tile is not None:
        ds_store = plan_fragment(op, "c", False, ds_tile.stride)
        ds_load = plan_fragment(op, "b", False, ds_tile.stride)
    qt_frag = plan_fragment(op, "b", False, q_tile.stride) if q_tile is not None else None
    b_row = split_formula(op.b.row_expr, op.wave_size, op.b.length)
    b_col = split_formula(op.b.col_expr, op.wave_size, op.b.length)
    c_row = split_formula(op.c.row_expr, op.wave_size, op.c.length)
    c_col = split_formula(op.c.col_expr, op.wave_size, op.c.length)
    if (k_frag is None or kt_frag is None or b_row is None or b_col is None or c_row is None or c_col is None
            or any(b_col.slot_offsets)
            or (ds_tile is not None and (ds_store is None or ds_load is None))
            or (q_tile is not None and qt_frag is None)):
        spec.fail("op_id", "has fragment layouts this kernel cannot use (a B column that depends on the slot, or a "
                           "formula that is not lane/slot separable)")
    assert k_frag is not None and kt_frag is not None
    assert b_row is not None and b_col is not None and c_row is not None and c_col is not None
    col_offsets = tuple(sorted(set(c_col.slot_offsets)))
    col_slots = tuple(tuple(s for s, off in enumerate(c_col.slot_offsets) if off == offset) for offset in col_offsets)
    return DqPlan(op, threads, spec.wave_rows // op.n, key_reps, spec.head_dim // op.m, spec.head_dim // op.k,
                  spec.block_n // op.k, k_tile, ds_tile, q_tile, kv_copy, qdo_copy, k_frag, kt_frag, ds_store,
                  ds_load, qt_frag, chain, b_row, b_col, c_row, c_col, col_offsets, col_slots, lds_bytes)
