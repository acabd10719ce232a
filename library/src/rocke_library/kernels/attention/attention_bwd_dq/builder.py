"""Python builder of the attention_bwd_dq family (the C++ twin mirrors it function for function).

Workgroup (x, y, z) owns query rows x * block_m .. of query head y of sequence z (work decode:
kernels/attention/common/work.py); wave w owns rows w * block_m / waves .. of the block. Before the
key loop every lane reads its Q^T and dO^T fragments straight from global memory (bounds-checked
buffer loads: rows past the sequence read 0), or with qdo_lds every thread copies its share of the
block's Q and dO rows into LDS (their fragments are read from there in step 2, after the step-1
barrier), and its rows' LSE2 and D. Per key block of block_n
(the loop bound is computed on the device, common/mask.py key_blocks, so fully masked blocks are
never visited):

  1. every thread copies its share of K and V into LDS (keys past the sequence read 0); barrier;
  2. S^T = K Q^T and dP^T = V dO^T through the catalog MMA, in f32;
  3. P = exp2(S * scale * log2(e) - LSE2) and dS = P * (dP - D) (common/backward.py), 0 where the
     key is masked;
  4. dS rounded to the input dtype becomes the B operand of dQ^T += K^T dS^T: in registers where
     rocke.helpers.plan_chain finds the path, else through each wave's rows of an LDS tile;
  5. barrier (the next copy overwrites K and V).

The epilogue stores dQ = dQ^T * scale in the input dtype for the rows inside the sequence.
"""

from __future__ import annotations

from collections.abc import Callable

from rocke.arch import get_arch
from rocke.helpers import (
    add_i32,
    alloc_tile,
    chain_fragment,
    const_i32,
    elem_bytes,
    emit_lane_part,
    f32_const,
    fragment_base,
    ir_type,
    load_fragment,
    masked_offset,
    mul_i32,
    store_fragment,
    vector_type,
)
from rocke.ir import Builder, KernelDef, ScalarType, Value, f32, i32, ptr, verify

from ..common import LN2, LOG2E, Work, decode_work, key_blocks, seq_view
from ..common.backward import (
    MAX_ACCESS_ELEMS,
    TileCopy,
    dscore,
    load_rows_b,
    recompute_p,
    row_limit,
    row_stats,
    slot_runs,
)
from .plan import DqPlan, plan_dq
from .spec import AttentionBwdDqSpec

# Test-only broken variants (negative controls): LSE2 read as a natural-log LSE, causal alignment
# flipped (top-left <-> bottom-right), scale applied twice in dQ.
FAULTS = ("", "lse_natural", "causal_flip", "scale_twice")
FLIPPED = {"none": "none", "causal_tl": "causal_br", "causal_br": "causal_tl"}
TENSORS = ("q", "k", "v", "do", "dq")
Operand = Callable[[int, int], Value]  # (k step, query rep) -> a B fragment


def kernel_params(b: Builder, spec: AttentionBwdDqSpec) -> dict[str, Value]:
    """Declare the kernel arguments in launch-contract order; returns them by name."""
    elem = ir_type(spec.dtype)
    params = {name: b.param(name, ptr(elem, "global"), noalias=True, readonly=True) for name in TENSORS[:4]}
    for name in ("lse2", "delta"):
        params[name] = b.param(name, ptr(f32, "global"), noalias=True, readonly=True)
    params["dq"] = b.param("dq", ptr(elem, "global"), noalias=True, writeonly=True)
    if spec.seq_mode == "varlen":
        for name in ("cu_seqlens_q", "cu_seqlens_k"):
            params[name] = b.param(name, ptr(i32, "global"), noalias=True, readonly=True)
    params["scale"] = b.param("scale", f32)
    sizes = ("batch", "seqlen_q", "seqlen_k") if spec.seq_mode == "batched" else ("batch", "total_q")
    for name in (*sizes, "heads_q", "group"):
        params[name] = b.param(name, i32)
    dims = ("b", "s", "h") if spec.seq_mode == "batched" else ("s", "h")
    for tensor in TENSORS:
        for dim in dims:
            params[f"{tensor}_stride_{dim}"] = b.param(f"{tensor}_stride_{dim}", i32)
    return params


def _views(b: Builder, spec: AttentionBwdDqSpec, params: dict[str, Value], work: Work
           ) -> dict[str, tuple[Value, Value]]:
    """(row-0 pointer, buffer resource) of the workgroup's sequence of every tensor."""
    esize = elem_bytes(spec.dtype)
    views = {}
    for tensor in TENSORS:
        is_q = tensor in ("q", "do", "dq")
        head = work.head if is_q else work.kv_head
        seqlen = work.seqlen_q if is_q else work.seqlen_k
        start = work.q_start if is_q else work.k_start
        batch_offset = None
        if spec.seq_mode == "batched":
            batch_offset = b.mul(work.batch, params[f"{tensor}_stride_b"])
        views[tensor] = seq_view(b, params[tensor], batch_offset, start, params[f"{tensor}_stride_s"], head,
                                 params[f"{tensor}_stride_h"], seqlen, spec.head_dim, esize, name=tensor)
    return views


def _row_operands(b: Builder, spec: AttentionBwdDqSpec, plan: DqPlan, params: dict[str, Value], work: Work,
                  views: dict[str, tuple[Value, Value]], tiles: tuple[Value, Value] | None, tid: Value, lane: Value,
                  wave_row0: Value, block_row0: Value) -> tuple[Operand, Operand]:
    """The Q^T and dO^T B operands of the wave's rows: fragments held in registers (read from
    global memory here), or with qdo_lds the block's rows copied into their LDS tiles here and
    each fragment read from its tile where the product uses it."""
    op = plan.op
    elem = ir_type(spec.dtype)
    if tiles is None:
        held = [load_rows_b(b, op, plan.b_row, plan.b_col, plan.q_reps, plan.qk_steps, views[t][1],
                            params[f"{t}_stride_s"], lane, block_row0, work.seqlen_q, elem, MAX_ACCESS_ELEMS)
                for t in ("q", "do")]
        return (lambda step, rq: held[0][step][rq]), (lambda step, rq: held[1][step][rq])
    assert plan.q_tile is not None and plan.qdo_copy is not None and plan.qt_frag is not None
    strides = (params["q_stride_s"], params["do_stride_s"])
    copy = TileCopy(b, plan.qdo_copy, plan.q_tile.stride, tid, strides)
    copy.run(b, (views["q"][1], views["do"][1]), strides, work.q0, work.seqlen_q, tiles, elem)
    frag = plan.qt_frag
    bases = [fragment_base(b, frag, lane, add_i32(b, wave_row0, rq * op.n), name="qt_base")
             for rq in range(plan.q_reps)]

    def reader(tile: Value) -> Operand:
        return lambda step, rq: load_fragment(b, tile, bases[rq], frag, step * op.k, elem, [], name="qt_frag")

    return reader(tiles[0]), reader(tiles[1])


def _products(b: Builder, plan: DqPlan, lds: Value, bases: list[Value], operand: Operand, elem: ScalarType,
              name: str) -> list[list[Value]]:
    """acc[key_rep][q_rep]: the key block's rows (K or V) times the B operand, in f32."""
    op = plan.op
    zero = f32_const(b, 0.0, op.c.length, name=f"{name}_acc")
    accs = [[zero] * plan.q_reps for _ in range(plan.key_reps)]
    for step in range(plan.qk_steps):
        bfrags = [operand(step, rq) for rq in range(plan.q_reps)]
        for rk in range(plan.key_reps):
            afrag = load_fragment(b, lds, bases[rk], plan.k_frag, step * op.k, elem, [], name=f"{name}_a")
            for rq in range(plan.q_reps):
                accs[rk][rq] = b.mma(op.id, afrag, bfrags[rq], accs[rk][rq], name=name)
    return accs


def _ds_operands(b: Builder, plan: DqPlan, dss: list[list[list[Value]]], ds_lds: Value | None,
                 ds_bases: tuple[list[Value], list[Value]] | None, elem: ScalarType) -> list[list[Value]]:
    """frags[step][q_rep]: dS^T as the B operand of dQ^T, rounded to the input dtype.
    dss[q_rep][key_rep][slot] are the f32 values in the S^T C layout."""
    op = plan.op
    rounded = [[[b.truncf(v, elem) for v in slots] for slots in reps] for reps in dss]
    if plan.chain is not None:
        return [[chain_fragment(b, plan.chain, step, rounded[rq], elem, name="ds_frag") for rq in range(plan.q_reps)]
                for step in range(plan.key_steps)]
    assert ds_lds is not None and ds_bases is not None and plan.ds_store is not None and plan.ds_load is not None
    for rq in range(plan.q_reps):
        for rk in range(plan.key_reps):
            frag = b.splat(b.const(0.0, elem), op.c.length)
            for slot, value in enumerate(rounded[rq][rk]):
                frag = b.insert(frag, value, slot)
            store_fragment(b, ds_lds, ds_bases[0][rq], plan.ds_store, rk * op.m, frag, elem, [])
    b.barrier()
    return [[load_fragment(b, ds_lds, ds_bases[1][rq], plan.ds_load, step * op.k, elem, [], name="ds_frag")
             for rq in range(plan.q_reps)] for step in range(plan.key_steps)]


def _epilogue(b: Builder, spec: AttentionBwdDqSpec, plan: DqPlan, params: dict[str, Value], work: Work,
              views: dict[str, tuple[Value, Value]], row_lane: Value, rows: list[Value], accs: list[list[Value]],
              dq_scale: Value) -> None:
    """dQ = dQ^T * scale in the input dtype, every row inside the sequence."""
    op = plan.op
    elem = ir_type(spec.dtype)
    esize = elem_bytes(spec.dtype)
    rsrc = views["dq"][1]
    classes = len(plan.col_offsets)
    scale_v = b.splat(dq_scale, op.c.length, name="dq_scale_v")
    for rq in range(plan.q_reps):
        for ci, slots in enumerate(plan.col_slots):
            row = rows[rq * classes + ci]
            ok = b.cmpi("slt", row, work.seqlen_q, name="row_ok")
            line = b.add(b.mul(row, params["dq_stride_s"]), row_lane)
            pieces = slot_runs(tuple(plan.c_row.slot_offsets[slot] for slot in slots), MAX_ACCESS_ELEMS)
            for rd in range(plan.d_reps):
                scaled = b.mul(accs[rd][rq], scale_v, name="dq")
                for first, count in pieces:
                    index = add_i32(b, line, rd * op.m + plan.c_row.slot_offsets[slots[first]])
                    if count == 1:
                        value = b.truncf(b.extract(scaled, slots[first]), elem)
                    else:
                        part = b.splat(b.const(0.0, f32), count)
                        for j in range(count):
                            part = b.insert(part, b.extract(scaled, slots[first + j]), j)
                        value = b.truncf(part, vector_type(elem, count))
                    b.buffer_store(rsrc, masked_offset(b, ok, index, esize), value)


def build(spec: AttentionBwdDqSpec, arch: str, *, _fault: str = "") -> KernelDef:
    """The verified kernel for spec on arch; SpecError when the arch refuses the spec."""
    if _fault not in FAULTS:
        raise ValueError(f"unknown fault '{_fault}'")
    target = get_arch(arch)
    plan = plan_dq(spec, target)
    op = plan.op
    elem = ir_type(spec.dtype)
    mask = FLIPPED[spec.mask] if _fault == "causal_flip" else spec.mask
    b = Builder(spec.kernel_name(), max_workgroup_size=plan.threads)
    params = kernel_params(b, spec)
    k_lds = alloc_tile(b, plan.k_tile, elem, name="k_lds")
    v_lds = alloc_tile(b, plan.k_tile, elem, name="v_lds")
    qdo_tiles = None
    if plan.q_tile is not None:
        qdo_tiles = (alloc_tile(b, plan.q_tile, elem, name="q_lds"), alloc_tile(b, plan.q_tile, elem, name="do_lds"))
    ds_lds = alloc_tile(b, plan.ds_tile, elem, name="ds_lds") if plan.ds_tile is not None else None

    tid = b.thread_id_x(name="tid")
    lane = b.lane_id(name="lane")
    wave = b.wave_id(name="wave")
    work = decode_work(b, spec.seq_mode, spec.block_m, params)
    views = _views(b, spec, params, work)
    scale = params["scale"]
    scale2 = b.mul(scale, f32_const(b, LOG2E, 1), name="scale_log2")
    dq_scale = b.mul(scale, scale) if _fault == "scale_twice" else scale
    stat_row0, lse2_rsrc, delta_rsrc = row_stats(b, spec.seq_mode, params, work)
    wave_row0 = mul_i32(b, wave, spec.wave_rows, name="wave_row0")
    block_row0 = b.add(work.q0, wave_row0, name="row0")
    q_operand, do_operand = _row_operands(b, spec, plan, params, work, views, qdo_tiles, tid, lane, wave_row0,
                                          block_row0)

    row_lane = emit_lane_part(b, plan.c_row.lane_part, lane)
    q_lane = emit_lane_part(b, plan.c_col.lane_part, lane)
    classes = len(plan.col_offsets)
    class_of = {slot: ci for ci, slots in enumerate(plan.col_slots) for slot in slots}
    rows = [b.add(add_i32(b, block_row0, rq * op.n + offset), q_lane, name="row")  # per query repeat and class
            for rq in range(plan.q_reps) for offset in plan.col_offsets]
    rooms, lse2s, deltas = [], [], []
    for row in rows:
        index = mul_i32(b, b.add(stat_row0, row), 4)
        lse2 = b.buffer_load(lse2_rsrc, index, f32, name="lse2")
        if _fault == "lse_natural":
            lse2 = b.mul(lse2, f32_const(b, LN2, 1))
        lse2s.append(lse2)
        deltas.append(b.buffer_load(delta_rsrc, index, f32, name="delta"))
        rooms.append(b.sub(row_limit(b, mask, row, work.seqlen_q, work.seqlen_k), row_lane, name="room"))
    kv_strides = (params["k_stride_s"], params["v_stride_s"])
    kv = TileCopy(b, plan.kv_copy, plan.k_tile.stride, tid, kv_strides)
    k_bases = [fragment_base(b, plan.k_frag, lane, const_i32(b, rk * op.m), name="k_frag_base")
               for rk in range(plan.key_reps)]
    kt_base = fragment_base(b, plan.kt_frag, lane, const_i32(b, 0), name="kt_base")
    ds_bases = None
    if plan.ds_store is not None and plan.ds_load is not None:
        lines = [add_i32(b, wave_row0, rq * op.n) for rq in range(plan.q_reps)]
        ds_bases = ([fragment_base(b, plan.ds_store, lane, line, name="ds_store_base") for line in lines],
                    [fragment_base(b, plan.ds_load, lane, line, name="ds_load_base") for line in lines])
    blocks = key_blocks(b, mask, work.q0, spec.block_m, spec.block_n, work.seqlen_q, work.seqlen_k)

    zero = f32_const(b, 0.0, op.c.length, name="dq_acc")
    inits = [zero] * (plan.d_reps * plan.q_reps)

    def body(kt: Value, *carried: Value) -> list[Value]:
        accs = [list(carried[rd * plan.q_reps:(rd + 1) * plan.q_reps]) for rd in range(plan.d_reps)]
        k0 = mul_i32(b, kt, spec.block_n, name="k0")
        kv.run(b, (views["k"][1], views["v"][1]), kv_strides, k0, work.seqlen_k, (k_lds, v_lds), elem)
        b.barrier()
        s_accs = _products(b, plan, k_lds, k_bases, q_operand, elem, "s")
        dp_accs = _products(b, plan, v_lds, k_bases, do_operand, elem, "dp")
        dss: list[list[list[Value]]] = []
        for rq in range(plan.q_reps):
            room = [b.sub(rooms[rq * classes + ci], k0, name="room_k0") for ci in range(classes)]
            per_key = []
            for rk in range(plan.key_reps):
                slots = []
                for slot in range(op.c.length):
                    at = rq * classes + class_of[slot]
                    key = rk * op.m + plan.c_row.slot_offsets[slot]
                    seen = b.cmpi("sle", const_i32(b, key), room[class_of[slot]], name="seen")
                    p = recompute_p(b, b.extract(s_accs[rk][rq], slot), scale2, lse2s[at], seen)
                    ds = dscore(b, p, b.extract(dp_accs[rk][rq], slot), deltas[at])
                    slots.append(b.select(seen, ds, f32_const(b, 0.0, 1), name="ds"))
                per_key.append(slots)
            dss.append(per_key)
        dsfrags = _ds_operands(b, plan, dss, ds_lds, ds_bases, elem)
        stride = plan.k_tile.stride
        for step in range(plan.key_steps):
            for rd in range(plan.d_reps):
                afrag = load_fragment(b, k_lds, kt_base, plan.kt_frag, step * op.k * stride + rd * op.m, elem, [],
                                      name="kt_frag")
                for rq in range(plan.q_reps):
                    accs[rd][rq] = b.mma(op.id, afrag, dsfrags[step][rq], accs[rd][rq], name="dq_acc")
        b.barrier()
        return [acc for row in accs for acc in row]

    out = b.for_(const_i32(b, 0), blocks, const_i32(b, 1), inits, body, names=["dq_acc"] * len(inits),
                 iv_name="kt")
    accs = [list(out[rd * plan.q_reps:(rd + 1) * plan.q_reps]) for rd in range(plan.d_reps)]
    _epilogue(b, spec, plan, params, work, views, row_lane, rows, accs, dq_scale)
    kernel = b.finish()
    verify(kernel, arch=target)
    return kernel
