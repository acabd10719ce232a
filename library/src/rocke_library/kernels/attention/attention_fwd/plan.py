"""Host-time plan of an attention_fwd kernel on one arch: every derived number, and the arch
refusals (atom not on the arch, workgroup too large, tiles that do not split, LDS over capacity).

The kernel computes S^T = K Q^T (A = K tile [block_n][head_dim + pad] in LDS, B = Q^T fragments
read straight from global memory once) and O^T = V^T P^T (A = V^T tile [head_dim][block_n + pad]
in LDS, B = P^T); with double_buffer the K and V^T tiles have two stages. Where plan_chain finds
a register path from the S^T C fragments to the B operand P^T needs, P stays in registers;
otherwise each wave writes P to its rows of an LDS tile [block_m][block_n + pad] and reads the B
fragments back.

A C column (one query) may depend on the slot as an offset added to the lane's column: the slots of
one offset form a query class, and the kernel keeps one softmax row (m, l) per query repeat and
class.

Where the S^T C fragments have no register path into the P^T B operand but the C fragments of
S = Q K^T have one into the A operand of O = P V (mma.sync m16n8k16: two adjacent n = 8 C atoms are
one 16 x 16 A fragment, FlashAttention-2's register reuse), the plan takes that orientation
(`rows`): A = Q fragments from global memory, B = K^T read down the K tile's lines, P chained into
A, B = V read down the V^T tile's lines, O in C fragments (rows = queries, columns = head_dim). A
query is then a C row (mma.sync: lane / 4 plus 8 for slots 2 and 3): the query classes are the C
row offsets and the softmax group joins the lanes of a row.
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

from ..common import column_group, row_group
from .spec import AttentionFwdSpec

MAX_LDS_ALLOC_ELEMS = 65536  # mem.lds_alloc count limit
MAX_ACCESS_ELEMS = 8  # 16 bytes of f16 / bf16: the widest buffer access
# VGPRs per lane the key loop may hold across iterations (O and S^T accumulators, Q^T fragments).
# Calibrated with LLVM 20 and 22: past it the loop spills on the tightest target (gfx1100 wave32,
# whose replicated WMMA operands double the fragment registers); the rest of the 256 go to the
# scores, probabilities and fragments in flight.
MAX_HELD_VGPRS = 140


@dataclass(frozen=True)
class AttentionPlan:
    op: MmaOp
    threads: int
    q_reps: int  # atoms along the wave's query rows
    key_reps: int  # S^T atoms along the key block
    d_reps: int  # O^T atoms along head_dim
    qk_steps: int  # k steps of S^T (over head_dim)
    pv_steps: int  # k steps of O^T (over the key block)
    k_tile: PaddedTile
    v_tile: PaddedTile  # V^T
    p_tile: PaddedTile | None  # None: P through registers
    copy: TileSplit  # the K / V copy: block_n lines of head_dim
    k_frag: FragmentPlan
    v_frag: FragmentPlan
    p_store: FragmentPlan | None  # LDS path: the S^T C fragment into the P tile
    p_load: FragmentPlan | None  # LDS path: the P^T B fragment
    chain: ChainPlan | None  # register path
    q_row: SplitFormula  # B (Q^T) fragment: head_dim index
    q_col: SplitFormula  # B (Q^T) fragment: query index
    c_row: SplitFormula  # C fragment: key (S^T) or head_dim (O^T) index
    c_col: SplitFormula  # C fragment: query index
    group: tuple[int, ...]  # lane-xor masks of the lanes sharing a C column
    col_offsets: tuple[int, ...]  # the C column offsets of the slots (query classes), ascending
    col_slots: tuple[tuple[int, ...], ...]  # the C slots of each class
    lds_bytes: int
    # S = Q K^T orientation (see the module docstring): k_frag / v_frag are B fragments, q_row / q_col
    # the A (Q) fragment's head_dim / query formulas, the C columns keys (S) or head_dim (O), the C
    # rows queries, col_offsets / col_slots the C row offsets' classes and group a row's lanes.
    rows: bool = False


def runs(offsets: tuple[int, ...], most: int) -> list[tuple[int, int]]:
    """(first slot, count) of the runs of consecutive slots whose offsets step by +1, at most `most` long."""
    out: list[tuple[int, int]] = []
    for s, offset in enumerate(offsets):
        if out:
            first, count = out[-1]
            if count < most and offset == offsets[first] + count:
                out[-1] = (first, count + 1)
                continue
        out.append((s, 1))
    return out


def plan_attention(spec: AttentionFwdSpec, target: ArchTarget) -> AttentionPlan:
    """The plan, or SpecError for a spec the arch refuses."""
    op = spec.atom()
    if target.mma_signature(spec.op_id) is None:
        spec.fail("op_id", f"is not available on {target.name} (it runs on {', '.join(op.archs)})")
    threads = spec.threads
    if threads > target.max_workgroup_size:
        spec.fail("waves", f"{spec.waves} waves of {op.wave_size} lanes exceed the {target.max_workgroup_size}-thread "
                           f"workgroup limit of {target.name}")
    esize = elem_bytes(spec.dtype)
    copy = split_tile(spec.block_n, spec.head_dim, threads, esize)
    if copy is None:
        spec.fail("block_n", f"the K / V tile of {spec.block_n} x {spec.head_dim} elements does not split evenly "
                             f"over {threads} threads")
    assert copy is not None
    stages = 2 if spec.double_buffer else 1
    k_tile = PaddedTile(spec.block_n, spec.head_dim, spec.lds_pad, stages)
    v_tile = PaddedTile(spec.head_dim, spec.block_n, spec.lds_pad, stages)
    key_reps = spec.block_n // op.m
    chain = plan_chain(op, key_reps, op, "b")
    if chain is None and plan_chain(op, spec.block_n // op.n, op, "a") is not None:
        return _plan_rows(spec, target, op, threads, esize, copy)
    p_tile = None if chain is not None else PaddedTile(spec.block_m, spec.block_n, spec.lds_pad, 1)
    for tile in (k_tile, v_tile, p_tile):
        if tile is not None and tile.count > MAX_LDS_ALLOC_ELEMS:
            spec.fail("block_n", f"an LDS tile holds {tile.count} elements, over the allocation limit of "
                                 f"{MAX_LDS_ALLOC_ELEMS}")
    lds_bytes = sum(tile.nbytes(esize) for tile in (k_tile, v_tile, p_tile) if tile is not None)
    if lds_bytes > target.lds_bytes:
        path = "K, V^T and P" if p_tile is not None else "K and V^T"
        one_stage = lds_bytes - k_tile.nbytes(esize) - v_tile.nbytes(esize)
        one_stage += PaddedTile(spec.block_n, spec.head_dim, spec.lds_pad, 1).nbytes(esize)
        one_stage += PaddedTile(spec.head_dim, spec.block_n, spec.lds_pad, 1).nbytes(esize)
        if spec.double_buffer and one_stage <= target.lds_bytes:
            spec.fail("double_buffer", f"the LDS tiles ({path}) need {lds_bytes} bytes with two stages of K and "
                                       f"V^T, over the {target.lds_bytes} bytes of {target.name} (one stage: "
                                       f"{one_stage} bytes)")
        spec.fail("block_n", f"the LDS tiles ({path}) need {lds_bytes} bytes, over the {target.lds_bytes} bytes "
                             f"of {target.name}")
    q_reps = spec.wave_rows // op.n
    held = ((spec.head_dim // op.m + key_reps) * q_reps * op.c.length
            + (spec.head_dim // op.k) * q_reps * -(-op.b.length * esize // 4))
    if held > MAX_HELD_VGPRS:
        spec.fail("block_n", f"the key loop holds {held} VGPRs per lane (O and S^T accumulators, Q^T fragments), "
                             f"over the budget of {MAX_HELD_VGPRS}")
    group = column_group(op)
    k_frag = plan_fragment(op, "a", True, k_tile.stride)
    v_frag = plan_fragment(op, "a", True, v_tile.stride)
    c_row = split_formula(op.c.row_expr, op.wave_size, op.c.length)
    c_col = split_formula(op.c.col_expr, op.wave_size, op.c.length)
    q_row = split_formula(op.b.row_expr, op.wave_size, op.b.length)
    q_col = split_formula(op.b.col_expr, op.wave_size, op.b.length)
    p_store = p_load = None
    if p_tile is not None:
        p_store = plan_fragment(op, "c", False, p_tile.stride)
        p_load = plan_fragment(op, "b", False, p_tile.stride)
    if (group is None or k_frag is None or v_frag is None or c_row is None or c_col is None or q_row is None
            or q_col is None or any(q_col.slot_offsets)
            or (p_tile is not None and (p_store is None or p_load is None))):
        spec.fail("op_id", "has fragment layouts this kernel cannot use (a B column that depends on the slot, a C "
                           "column that is not the lane's plus an offset of the slot, or a formula that is not "
                           "lane/slot separable)")
    assert k_frag is not None and v_frag is not None and group is not None
    assert c_row is not None and c_col is not None and q_row is not None and q_col is not None
    col_offsets = tuple(sorted(set(c_col.slot_offsets)))
    col_slots = tuple(tuple(s for s, off in enumerate(c_col.slot_offsets) if off == offset) for offset in col_offsets)
    return AttentionPlan(op, threads, q_reps, key_reps, spec.head_dim // op.m,
                         spec.head_dim // op.k, spec.block_n // op.k, k_tile, v_tile, p_tile, copy, k_frag, v_frag,
                         p_store, p_load, chain, q_row, q_col, c_row, c_col, group, col_offsets, col_slots,
                         lds_bytes)


def _plan_rows(spec: AttentionFwdSpec, target: ArchTarget, op: MmaOp, threads: int, esize: int, copy: TileSplit
               ) -> AttentionPlan:
    """The S = Q K^T orientation's plan (P chained into the A operand of O = P V), or SpecError."""
    stages = 2 if spec.double_buffer else 1
    k_tile = PaddedTile(spec.block_n, spec.head_dim, spec.lds_pad, stages)
    v_tile = PaddedTile(spec.head_dim, spec.block_n, spec.lds_pad, stages)
    key_reps = spec.block_n // op.n
    chain = plan_chain(op, key_reps, op, "a")
    assert chain is not None
    for tile in (k_tile, v_tile):
        if tile.count > MAX_LDS_ALLOC_ELEMS:
            spec.fail("block_n", f"an LDS tile holds {tile.count} elements, over the allocation limit of "
                                 f"{MAX_LDS_ALLOC_ELEMS}")
    lds_bytes = k_tile.nbytes(esize) + v_tile.nbytes(esize)
    if lds_bytes > target.lds_bytes:
        one_stage = (PaddedTile(spec.block_n, spec.head_dim, spec.lds_pad, 1).nbytes(esize)
                     + PaddedTile(spec.head_dim, spec.block_n, spec.lds_pad, 1).nbytes(esize))
        if spec.double_buffer and one_stage <= target.lds_bytes:
            spec.fail("double_buffer", f"the LDS tiles (K and V^T) need {lds_bytes} bytes with two stages of K and "
                                       f"V^T, over the {target.lds_bytes} bytes of {target.name} (one stage: "
                                       f"{one_stage} bytes)")
        spec.fail("block_n", f"the LDS tiles (K and V^T) need {lds_bytes} bytes, over the {target.lds_bytes} bytes "
                             f"of {target.name}")
    if spec.wave_rows % op.m != 0:
        spec.fail("block_m", f"must be a multiple of waves * atom m = {spec.waves} * {op.m} ({op.id}): the query "
                             f"rows of S = Q K^T are the atom's m")
    q_reps = spec.wave_rows // op.m
    d_reps = spec.head_dim // op.n
    held = ((d_reps + key_reps) * q_reps * op.c.length
            + (spec.head_dim // op.k) * q_reps * -(-op.a.length * esize // 4))
    if held > MAX_HELD_VGPRS:
        spec.fail("block_n", f"the key loop holds {held} VGPRs per lane (O and S accumulators, Q fragments), "
                             f"over the budget of {MAX_HELD_VGPRS}")
    group = row_group(op)
    k_frag = plan_fragment(op, "b", False, k_tile.stride)
    v_frag = plan_fragment(op, "b", False, v_tile.stride)
    c_row = split_formula(op.c.row_expr, op.wave_size, op.c.length)
    c_col = split_formula(op.c.col_expr, op.wave_size, op.c.length)
    q_row = split_formula(op.a.col_expr, op.wave_size, op.a.length)
    q_col = split_formula(op.a.row_expr, op.wave_size, op.a.length)
    if group is None or k_frag is None or v_frag is None or c_row is None or c_col is None or q_row is None \
            or q_col is None:
        spec.fail("op_id", "has fragment layouts this kernel cannot use (a C row that is not the lane's plus an "
                           "offset of the slot, or a formula that is not lane/slot separable)")
    assert group is not None and k_frag is not None and v_frag is not None
    assert c_row is not None and c_col is not None and q_row is not None and q_col is not None
    row_offsets = tuple(sorted(set(c_row.slot_offsets)))
    row_slots = tuple(tuple(s for s, off in enumerate(c_row.slot_offsets) if off == offset) for offset in row_offsets)
    return AttentionPlan(op, threads, q_reps, key_reps, d_reps, spec.head_dim // op.k, spec.block_n // op.k, k_tile,
                         v_tile, None, copy, k_frag, v_frag, None, None, chain, q_row, q_col, c_row, c_col, group,
                         row_offsets, row_slots, lds_bytes, rows=True)
