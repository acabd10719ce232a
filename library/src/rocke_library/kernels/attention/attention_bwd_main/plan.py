"""Host-time plan of an attention_bwd_main kernel on one arch: every derived number, and the arch
refusals (atom not on the arch, workgroup too large, tiles that do not split, LDS over capacity).

The workgroup keeps its key block in LDS (K and V as [block_n][head_dim + pad]) and, per query
block, Q and dO ([block_m][head_dim + pad]). Wave w owns keys w * block_n / waves .. and computes

    S = Q K^T, dP = dO V^T      A = Q / dO rows (k = head_dim contiguous), B = K^T / V^T lines
    dV^T += dO^T P              A = dO^T (read down the dO tile's lines), B = P
    dK^T += Q^T dS              A = Q^T, B = dS
    dQ^T  = K^T dS^T            (dq_mode=atomic) A = K^T (down the K tile), B = dS^T

dV^T, dK^T and dQ^T cover the d_chunk head_dim columns d0 = chunk * d_chunk .. of the
workgroup's chunk (S and dP reduce over the whole head_dim).

The C fragments of S / dS (rows = queries) become the B operands of dV^T / dK^T (k = queries)
in registers where rocke.helpers.plan_chain finds the path for the atom, else through an LDS
tile per product ([block_n][block_m + pad], each wave its own keys' lines). dQ^T always reads
dS^T from the dS tile (its k runs over keys, the C fragments' columns).

A C column (a key of S / dV^T / dK^T, a query of dQ^T) may depend on the slot as an offset added to
the lane's column (mma.sync: lane % 4 * 2 + slot % 2): the slots of one offset form a column class,
and the kernel keeps one key (and one dQ row) per atom and class.
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

from .spec import AttentionBwdMainSpec

MAX_LDS_ALLOC_ELEMS = 65536  # mem.lds_alloc count limit
ATOMIC_FEATURE = "global_atomic_fadd_f32"


@dataclass(frozen=True)
class MainPlan:
    op: MmaOp
    threads: int
    q_reps: int  # S / dP atoms along the query block (C rows)
    key_reps: int  # atoms along the wave's keys (C columns)
    d_reps: int  # dV^T / dK^T / dQ^T atoms along the workgroup's d_chunk columns (C rows)
    qk_steps: int  # k steps of S and dP (over head_dim)
    q_steps: int  # k steps of dV^T and dK^T (over the query block)
    key_steps: int  # k steps of dQ^T (over the wave's keys)
    dq_cols: int  # dQ^T atoms along the query block (C columns)
    k_tile: PaddedTile  # K and V: [block_n][head_dim + pad]
    q_tile: PaddedTile  # Q and dO: [block_m][head_dim + pad]
    p_tile: PaddedTile | None  # P, LDS path only: [block_n][block_m + pad]
    ds_tile: PaddedTile | None  # dS, LDS path or dq_mode=atomic: [block_n][block_m + pad]
    kv_copy: TileSplit  # block_n lines of head_dim
    qd_copy: TileSplit  # block_m lines of head_dim
    rows_a: FragmentPlan  # Q / dO as the A operand of S / dP
    lines_b: FragmentPlan  # K^T / V^T as the B operand of S / dP
    cols_a: FragmentPlan  # dO^T / Q^T as the A operand of dV^T / dK^T
    kt_a: FragmentPlan | None  # K^T as the A operand of dQ^T
    p_store: FragmentPlan | None  # a C fragment (queries x keys) into a P / dS tile
    p_load: FragmentPlan | None  # P / dS as the B operand of dV^T / dK^T, from its tile
    dst_load: FragmentPlan | None  # dS^T as the B operand of dQ^T, from the dS tile
    chain: ChainPlan | None  # register path of P / dS into the B operand
    c_row: SplitFormula  # C fragment: query (S) or head_dim (dV^T ...) index
    c_col: SplitFormula  # C fragment: key (S, dV^T) or query (dQ^T) index
    col_offsets: tuple[int, ...]  # the C column offsets of the slots (column classes), ascending
    col_slots: tuple[tuple[int, ...], ...]  # the C slots of each class
    lds_bytes: int


def plan_main(spec: AttentionBwdMainSpec, target: ArchTarget) -> MainPlan:
    """The plan, or SpecError for a spec the arch refuses."""
    op = spec.atom()
    if target.mma_signature(spec.op_id) is None:
        spec.fail("op_id", f"is not available on {target.name} (it runs on {', '.join(op.archs)})")
    threads = spec.threads
    if threads > target.max_workgroup_size:
        spec.fail("waves", f"{spec.waves} waves of {op.wave_size} lanes exceed the {target.max_workgroup_size}-thread "
                           f"workgroup limit of {target.name}")
    for field, mode in (("dq_mode", spec.dq_mode), ("dkv_mode", spec.dkv_mode)):
        if mode == "atomic" and not target.has_feature(ATOMIC_FEATURE):
            spec.fail(field, f"needs {ATOMIC_FEATURE}, which {target.name} does not have")
    esize = elem_bytes(spec.dtype)
    kv_copy = split_tile(spec.block_n, spec.head_dim, threads, esize)
    if kv_copy is None:
        spec.fail("block_n", f"the K / V tile of {spec.block_n} x {spec.head_dim} elements does not split evenly "
                             f"over {threads} threads")
    qd_copy = split_tile(spec.block_m, spec.head_dim, threads, esize)
    if qd_copy is None:
        spec.fail("block_m", f"the Q / dO tile of {spec.block_m} x {spec.head_dim} elements does not split evenly "
                             f"over {threads} threads")
    assert kv_copy is not None and qd_copy is not None
    k_tile = PaddedTile(spec.block_n, spec.head_dim, spec.lds_pad, 1)
    q_tile = PaddedTile(spec.block_m, spec.head_dim, spec.lds_pad, 1)
    q_reps = spec.block_m // op.m
    chain = plan_chain(op, q_reps, op, "b")
    atomic_dq = spec.dq_mode == "atomic"
    s_tile = PaddedTile(spec.block_n, spec.block_m, spec.lds_pad, 1)
    p_tile = s_tile if chain is None else None
    ds_tile = s_tile if chain is None or atomic_dq else None
    tiles = [("K", k_tile), ("V", k_tile), ("Q", q_tile), ("dO", q_tile), ("P", p_tile), ("dS", ds_tile)]
    used = [(label, tile) for label, tile in tiles if tile is not None]
    for _, tile in used:
        if tile.count > MAX_LDS_ALLOC_ELEMS:
            spec.fail("block_n", f"an LDS tile holds {tile.count} elements, over the allocation limit of "
                                 f"{MAX_LDS_ALLOC_ELEMS}")
    lds_bytes = sum(tile.nbytes(esize) for _, tile in used)
    if lds_bytes > target.lds_bytes:
        names = ", ".join(label for label, _ in used)
        spec.fail("block_n", f"the LDS tiles ({names}) need {lds_bytes} bytes, over the {target.lds_bytes} bytes "
                             f"of {target.name}")
    rows_a = plan_fragment(op, "a", True, q_tile.stride)
    lines_b = plan_fragment(op, "b", False, k_tile.stride)
    cols_a = plan_fragment(op, "a", False, q_tile.stride)
    kt_a = plan_fragment(op, "a", False, k_tile.stride) if atomic_dq else None
    p_store = p_load = dst_load = None
    if ds_tile is not None:
        p_store = plan_fragment(op, "c", False, ds_tile.stride)
        p_load = plan_fragment(op, "b", False, ds_tile.stride)
        dst_load = plan_fragment(op, "b", True, ds_tile.stride) if atomic_dq else None
    c_row = split_formula(op.c.row_expr, op.wave_size, op.c.length)
    c_col = split_formula(op.c.col_expr, op.wave_size, op.c.length)
    if (rows_a is None or lines_b is None or cols_a is None or c_row is None or c_col is None
            or (atomic_dq and (kt_a is None or dst_load is None))
            or (ds_tile is not None and (p_store is None or p_load is None))):
        spec.fail("op_id", "has fragment layouts this kernel cannot use (a formula that is not lane/slot separable)")
    assert rows_a is not None and lines_b is not None and cols_a is not None
    assert c_row is not None and c_col is not None
    col_offsets = tuple(sorted(set(c_col.slot_offsets)))
    col_slots = tuple(tuple(s for s, off in enumerate(c_col.slot_offsets) if off == offset) for offset in col_offsets)
    return MainPlan(op, threads, q_reps, spec.wave_keys // op.n, spec.d_chunk // op.m, spec.head_dim // op.k,
                    spec.block_m // op.k, spec.wave_keys // op.k, spec.block_m // op.n, k_tile, q_tile, p_tile,
                    ds_tile, kv_copy, qd_copy, rows_a, lines_b, cols_a, kt_a, p_store, p_load, dst_load, chain,
                    c_row, c_col, col_offsets, col_slots, lds_bytes)
