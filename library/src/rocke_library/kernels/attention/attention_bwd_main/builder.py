"""Python builder of the attention_bwd_main family (the C++ twin mirrors it function for function).

Workgroup (x, y, z) owns keys x * block_n .. of the kv head of query head y of sequence z (work
decode: kernels/attention/common/work.py, whose block origin is here the key block's); wave w
owns keys w * block_n / waves .. of the block. K and V of the block are copied into LDS once
(keys past the sequence read 0). The loop runs over the query blocks that can see the keys
(bounds on the device: common/backward.py query_blocks); per query block of block_m rows:

  1. every thread copies its share of Q and dO into LDS (rows past the sequence read 0); barrier;
  2. S = Q K^T and dP = dO V^T through the catalog MMA, in f32;
  3. P = exp2(S * scale * log2(e) - LSE2) and dS = P * (dP - D) (common/backward.py), 0 where
     the key is masked or the row lies past the sequence;
  4. P and dS rounded to the input dtype become the B operands of dV^T += dO^T P and
     dK^T += Q^T dS: in registers where rocke.helpers.plan_chain finds the path, else through
     each wave's lines of an LDS tile (store, barrier, load);
  5. dq_mode=atomic: dQ^T = K^T dS^T (dS^T read from the dS tile) times scale, added to the f32
     dQ workspace by global atomics (rows past the sequence skipped);
  6. barrier (the next copy overwrites Q and dO).

The epilogue writes dV and dK * scale for the keys inside the sequence: dkv_mode=direct stores
them in the input dtype (buffer stores), dkv_mode=atomic adds them to the f32 dK / dV workspaces
by global atomics (every query head of a GQA group adds into its kv head's rows), dkv_mode=split
stores them in f32 to the query head's own slice of the workspaces (buffer stores: each element
of a key inside the sequence is written once, by one workgroup, so the slices need no zeros).
"""

from __future__ import annotations

from dataclasses import replace

from rocke.arch import get_arch
from rocke.families.spec import MAX_ACCESS_BYTES
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

from ..common import LN2, LOG2E, Work, decode_work, seq_view
from ..common.backward import (
    MAX_ACCESS_ELEMS,
    TileCopy,
    dscore,
    query_blocks,
    recompute_p,
    row_limit,
    row_stats,
    slot_runs,
)
from .plan import MainPlan, plan_main
from .spec import AttentionBwdMainSpec

# Test-only broken variants (negative controls): LSE2 read as a natural-log LSE, causal alignment
# flipped (top-left <-> bottom-right), scale applied twice in dK, and (dkv_mode=split) each query
# head's dK / dV stored in the slice of its neighbour head ^ 1: a permutation inside an even group,
# invisible to the group's sum, which the per-slice check must catch; (head_dim split in chunks)
# every chunk's dK, dV and dQ written at the columns of chunk 0.
FAULTS = ("", "lse_natural", "causal_flip", "scale_twice", "split_head_swap", "chunk_origin")
FLIPPED = {"none": "none", "causal_tl": "causal_br", "causal_br": "causal_tl"}
INPUTS = ("q", "k", "v", "do")
QUERY_SIDE = ("q", "do", "dq_acc")


def dkv_names(spec: AttentionBwdMainSpec) -> tuple[str, str]:
    """The dK and dV arguments: the outputs dk, dv (direct) or the f32 workspaces dk_acc, dv_acc
    (atomic, split)."""
    return ("dk", "dv") if spec.dkv_mode == "direct" else ("dk_acc", "dv_acc")


def query_heads(spec: AttentionBwdMainSpec, tensor: str) -> bool:
    """Whether a tensor has one head per query head: the query side, and the dK / dV workspaces
    of dkv_mode=split (one slice per query head, rows of the key sequence)."""
    return tensor in QUERY_SIDE or (spec.dkv_mode == "split" and tensor in dkv_names(spec))


def tensors(spec: AttentionBwdMainSpec) -> tuple[str, ...]:
    """The tensors with stride arguments, in argument order."""
    return (*INPUTS, *dkv_names(spec), *(("dq_acc",) if spec.dq_mode == "atomic" else ()))


def kernel_params(b: Builder, spec: AttentionBwdMainSpec) -> dict[str, Value]:
    """Declare the kernel arguments in launch-contract order; returns them by name."""
    elem = ir_type(spec.dtype)
    params = {name: b.param(name, ptr(elem, "global"), noalias=True, readonly=True) for name in INPUTS}
    for name in ("lse2", "delta"):
        params[name] = b.param(name, ptr(f32, "global"), noalias=True, readonly=True)
    for name in dkv_names(spec):
        if spec.dkv_mode == "direct":
            params[name] = b.param(name, ptr(elem, "global"), noalias=True, writeonly=True)
        elif spec.dkv_mode == "split":
            params[name] = b.param(name, ptr(f32, "global"), noalias=True, writeonly=True)
        else:
            params[name] = b.param(name, ptr(f32, "global"), noalias=True)
    if spec.dq_mode == "atomic":
        params["dq_acc"] = b.param("dq_acc", ptr(f32, "global"), noalias=True)
    if spec.seq_mode == "varlen":
        for name in ("cu_seqlens_q", "cu_seqlens_k"):
            params[name] = b.param(name, ptr(i32, "global"), noalias=True, readonly=True)
    params["scale"] = b.param("scale", f32)
    sizes = ("batch", "seqlen_q", "seqlen_k") if spec.seq_mode == "batched" else ("batch", "total_q")
    for name in (*sizes, "heads_q", "group"):
        params[name] = b.param(name, i32)
    dims = ("b", "s", "h") if spec.seq_mode == "batched" else ("s", "h")
    for tensor in tensors(spec):
        for dim in dims:
            params[f"{tensor}_stride_{dim}"] = b.param(f"{tensor}_stride_{dim}", i32)
    return params


def _views(b: Builder, spec: AttentionBwdMainSpec, params: dict[str, Value], work: Work
           ) -> dict[str, tuple[Value, Value]]:
    """(row-0 pointer, buffer resource) of the workgroup's sequence of every tensor."""
    views = {}
    for tensor in tensors(spec):
        is_q = tensor in QUERY_SIDE
        head = work.head if query_heads(spec, tensor) else work.kv_head
        seqlen = work.seqlen_q if is_q else work.seqlen_k
        start = work.q_start if is_q else work.k_start
        esize = 4 if tensor.endswith("_acc") else elem_bytes(spec.dtype)
        batch_offset = None
        if spec.seq_mode == "batched":
            batch_offset = b.mul(work.batch, params[f"{tensor}_stride_b"])
        views[tensor] = seq_view(b, params[tensor], batch_offset, start, params[f"{tensor}_stride_s"], head,
                                 params[f"{tensor}_stride_h"], seqlen, spec.head_dim, esize, name=tensor)
    return views


def _products(b: Builder, plan: MainPlan, rows_lds: Value, lines_lds: Value, row_bases: list[Value],
              line_bases: list[Value], elem: ScalarType, name: str) -> list[list[Value]]:
    """acc[q_rep][key_rep]: rows (Q or dO) times lines^T (K or V) over head_dim, in f32."""
    op = plan.op
    zero = f32_const(b, 0.0, op.c.length, name=f"{name}_acc")
    accs = [[zero] * plan.key_reps for _ in range(plan.q_reps)]
    for step in range(plan.qk_steps):
        afrags = [load_fragment(b, rows_lds, row_bases[rq], plan.rows_a, step * op.k, elem, [], name=f"{name}_a")
                  for rq in range(plan.q_reps)]
        for rk in range(plan.key_reps):
            bfrag = load_fragment(b, lines_lds, line_bases[rk], plan.lines_b, step * op.k, elem, [], name=f"{name}_b")
            for rq in range(plan.q_reps):
                accs[rq][rk] = b.mma(op.id, afrags[rq], bfrag, accs[rq][rk], name=name)
    return accs


def _b_operands(b: Builder, plan: MainPlan, values: list[list[list[Value]]], tile: Value | None,
                store_bases: list[Value], elem: ScalarType, name: str) -> list[list[Value]] | None:
    """frags[key_rep][step] of P or dS (values[q_rep][key_rep][slot], f32, C layout) as the B
    operand of dV^T / dK^T, rounded to the input dtype: through registers (plan.chain) or the
    wave's lines of the LDS tile. With a tile and no chain, only stores here (None): the caller
    loads after the barrier (load_b)."""
    op = plan.op
    rounded = [[[b.truncf(v, elem) for v in slots] for slots in reps] for reps in values]
    if tile is not None:
        for rq in range(plan.q_reps):
            for rk in range(plan.key_reps):
                frag = b.splat(b.const(0.0, elem), op.c.length)
                for slot, value in enumerate(rounded[rq][rk]):
                    frag = b.insert(frag, value, slot)
                assert plan.p_store is not None
                store_fragment(b, tile, store_bases[rk], plan.p_store, rq * op.m, frag, elem, [])
    if plan.chain is None:
        return None
    chain = plan.chain
    return [[chain_fragment(b, chain, step, [rounded[rq][rk] for rq in range(plan.q_reps)], elem,
                            name=f"{name}_frag") for step in range(plan.q_steps)] for rk in range(plan.key_reps)]


def _load_b(b: Builder, plan: MainPlan, tile: Value, load_bases: list[Value], elem: ScalarType, name: str
            ) -> list[list[Value]]:
    """frags[key_rep][step] of P or dS read back from the wave's lines of its tile."""
    op = plan.op
    assert plan.p_load is not None
    return [[load_fragment(b, tile, load_bases[rk], plan.p_load, step * op.k, elem, [], name=f"{name}_frag")
             for step in range(plan.q_steps)] for rk in range(plan.key_reps)]


def _dq_atomic(b: Builder, spec: AttentionBwdMainSpec, plan: MainPlan, params: dict[str, Value],
               views: dict[str, tuple[Value, Value]], k_lds: Value, ds_lds: Value, kt_base: Value,
               dst_base: Value, q0: Value, row_lane: Value, col_lane: Value, seqlen_q: Value, scale: Value,
               elem: ScalarType, d0: Value | None) -> None:
    """dQ^T = K^T dS^T over the wave's keys, times scale, added into the f32 dQ workspace at the
    chunk's columns d0 .. (kt_base already holds d0)."""
    op = plan.op
    assert plan.kt_a is not None and plan.dst_load is not None and plan.ds_tile is not None
    zero = f32_const(b, 0.0, op.c.length, name="dq_acc")
    accs = [[zero] * plan.dq_cols for _ in range(plan.d_reps)]
    stride, ds_stride = plan.k_tile.stride, plan.ds_tile.stride
    for step in range(plan.key_steps):
        bfrags = [load_fragment(b, ds_lds, dst_base, plan.dst_load, step * op.k * ds_stride + cq * op.n, elem, [],
                                name="dst_frag") for cq in range(plan.dq_cols)]
        for rd in range(plan.d_reps):
            afrag = load_fragment(b, k_lds, kt_base, plan.kt_a, step * op.k * stride + rd * op.m, elem,
                                  [spec.d_chunk], name="kt_frag")
            for cq in range(plan.dq_cols):
                accs[rd][cq] = b.mma(op.id, afrag, bfrags[cq], accs[rd][cq], name="dq_acc")
    dq_row0 = views["dq_acc"][0]
    scale_v = b.splat(scale, op.c.length, name="scale_v")
    for cq in range(plan.dq_cols):
        for offset, slots in zip(plan.col_offsets, plan.col_slots, strict=True):
            row = b.add(add_i32(b, q0, cq * op.n + offset), col_lane, name="dq_row")
            ok = b.cmpi("slt", row, seqlen_q, name="dq_ok")
            line = b.add(b.mul(row, params["dq_acc_stride_s"]), row_lane)
            if d0 is not None:
                line = b.add(line, d0, name="dq_line")
            scaled = [b.mul(accs[rd][cq], scale_v, name="dq") for rd in range(plan.d_reps)]

            def add_row(line: Value = line, scaled: list[Value] = scaled, slots: tuple[int, ...] = slots) -> None:
                for rd in range(plan.d_reps):
                    for slot in slots:
                        index = add_i32(b, line, rd * op.m + plan.c_row.slot_offsets[slot])
                        b.atomic_add_f32(dq_row0, index, b.extract(scaled[rd], slot))

            b.if_(ok, add_row)


def _epilogue(b: Builder, spec: AttentionBwdMainSpec, plan: MainPlan, params: dict[str, Value],
              views: dict[str, tuple[Value, Value]], keys: list[Value], row_lane: Value, seqlen_k: Value,
              accs: dict[str, list[list[Value]]], dk_scale: Value, d0: Value | None) -> None:
    """dV and dK * scale (accs[name][d_rep][key_rep], C layout of dV^T / dK^T) of the wave's keys
    inside the sequence at the chunk's columns d0 ..: stored in the input dtype (direct), added to
    the f32 workspaces (atomic) or stored in f32 to the query head's slice (split)."""
    op = plan.op
    split = spec.dkv_mode == "split"
    elem = f32 if split else ir_type(spec.dtype)
    esize = 4 if split else elem_bytes(spec.dtype)
    most = MAX_ACCESS_BYTES // 4 if split else MAX_ACCESS_ELEMS
    classes = len(plan.col_offsets)
    factor = b.splat(dk_scale, op.c.length, name="dk_scale_v")
    dk_name, dv_name = dkv_names(spec)
    for name, arg in (("dv", dv_name), ("dk", dk_name)):
        row0, rsrc = views[arg]
        for rk in range(plan.key_reps):
            for ci, slots in enumerate(plan.col_slots):
                key = keys[rk * classes + ci]
                ok = b.cmpi("slt", key, seqlen_k, name="key_ok")
                line = b.add(b.mul(key, params[f"{arg}_stride_s"]), row_lane)
                if d0 is not None:
                    line = b.add(line, d0, name="dkv_line")
                values = [accs[name][rd][rk] for rd in range(plan.d_reps)]
                if name == "dk":
                    values = [b.mul(value, factor, name=name) for value in values]
                if spec.dkv_mode != "atomic":
                    pieces = slot_runs(tuple(plan.c_row.slot_offsets[slot] for slot in slots), most)
                    for rd in range(plan.d_reps):
                        for first, count in pieces:
                            index = add_i32(b, line, rd * op.m + plan.c_row.slot_offsets[slots[first]])
                            if count == 1:
                                value = b.extract(values[rd], slots[first])
                            else:
                                value = b.splat(b.const(0.0, f32), count)
                                for j in range(count):
                                    value = b.insert(value, b.extract(values[rd], slots[first + j]), j)
                            if not split:
                                value = b.truncf(value, elem if count == 1 else vector_type(elem, count))
                            b.buffer_store(rsrc, masked_offset(b, ok, index, esize), value)
                    continue

                def add_key(line: Value = line, values: list[Value] = values, row0: Value = row0,
                            slots: tuple[int, ...] = slots) -> None:
                    for rd in range(plan.d_reps):
                        for slot in slots:
                            index = add_i32(b, line, rd * op.m + plan.c_row.slot_offsets[slot])
                            b.atomic_add_f32(row0, index, b.extract(values[rd], slot))

                b.if_(ok, add_key)


def build(spec: AttentionBwdMainSpec, arch: str, *, _fault: str = "") -> KernelDef:
    """The verified kernel for spec on arch; SpecError when the arch refuses the spec."""
    if _fault not in FAULTS:
        raise ValueError(f"unknown fault '{_fault}'")
    target = get_arch(arch)
    plan = plan_main(spec, target)
    op = plan.op
    elem = ir_type(spec.dtype)
    mask = FLIPPED[spec.mask] if _fault == "causal_flip" else spec.mask
    b = Builder(spec.kernel_name(), max_workgroup_size=plan.threads)
    params = kernel_params(b, spec)
    k_lds = alloc_tile(b, plan.k_tile, elem, name="k_lds")
    v_lds = alloc_tile(b, plan.k_tile, elem, name="v_lds")
    q_lds = alloc_tile(b, plan.q_tile, elem, name="q_lds")
    do_lds = alloc_tile(b, plan.q_tile, elem, name="do_lds")
    p_lds = alloc_tile(b, plan.p_tile, elem, name="p_lds") if plan.p_tile is not None else None
    ds_lds = alloc_tile(b, plan.ds_tile, elem, name="ds_lds") if plan.ds_tile is not None else None

    tid = b.thread_id_x(name="tid")
    lane = b.lane_id(name="lane")
    wave = b.wave_id(name="wave")
    work = decode_work(b, spec.seq_mode, spec.block_n, params, parts=spec.chunks)
    k0 = work.q0  # the decode's block origin: the first key of the workgroup's block
    d0 = None  # the chunk's first head_dim column (None: one chunk, column 0)
    if work.part is not None:
        d0 = mul_i32(b, work.part, spec.d_chunk, name="d0")
    out_d0 = const_i32(b, 0) if d0 is not None and _fault == "chunk_origin" else d0
    views = _views(b, spec, params, work)
    if _fault == "split_head_swap":
        swapped = _views(b, spec, params, replace(work, head=b.xor_(work.head, const_i32(b, 1))))
        views.update({name: swapped[name] for name in dkv_names(spec)})
    scale = params["scale"]
    scale2 = b.mul(scale, f32_const(b, LOG2E, 1), name="scale_log2")
    dk_scale = b.mul(scale, scale) if _fault == "scale_twice" else scale
    stat_row0, lse2_rsrc, delta_rsrc = row_stats(b, spec.seq_mode, params, work)
    wave_key0 = mul_i32(b, wave, spec.wave_keys, name="wave_key0")

    kv_strides = (params["k_stride_s"], params["v_stride_s"])
    kv = TileCopy(b, plan.kv_copy, plan.k_tile.stride, tid, kv_strides)
    kv.run(b, (views["k"][1], views["v"][1]), kv_strides, k0, work.seqlen_k, (k_lds, v_lds), elem)
    b.barrier()

    row_lane = emit_lane_part(b, plan.c_row.lane_part, lane)
    col_lane = emit_lane_part(b, plan.c_col.lane_part, lane)
    key_lines = [add_i32(b, wave_key0, rk * op.n) for rk in range(plan.key_reps)]
    classes = len(plan.col_offsets)
    class_of = {slot: ci for ci, slots in enumerate(plan.col_slots) for slot in slots}
    keys = [b.add(b.add(k0, add_i32(b, line, offset)), col_lane, name="key")  # per key atom and class
            for line in key_lines for offset in plan.col_offsets]
    row_bases = [fragment_base(b, plan.rows_a, lane, const_i32(b, rq * op.m), name="rows_base")
                 for rq in range(plan.q_reps)]
    line_bases = [fragment_base(b, plan.lines_b, lane, line, name="lines_base") for line in key_lines]
    cols_base = fragment_base(b, plan.cols_a, lane, const_i32(b, 0), name="cols_base")
    if d0 is not None:
        cols_base = b.add(cols_base, d0, name="cols_base_d0")
    store_bases: list[Value] = []
    load_bases: list[Value] = []
    if plan.p_store is not None and plan.p_load is not None:
        store_bases = [fragment_base(b, plan.p_store, lane, line, name="s_store_base") for line in key_lines]
        load_bases = [fragment_base(b, plan.p_load, lane, line, name="s_load_base") for line in key_lines]
    kt_base = dst_base = None
    if plan.kt_a is not None and plan.dst_load is not None:
        kt_base = fragment_base(b, plan.kt_a, lane, wave_key0, name="kt_base")
        if d0 is not None:
            kt_base = b.add(kt_base, d0, name="kt_base_d0")
        dst_base = fragment_base(b, plan.dst_load, lane, wave_key0, name="dst_base")
    first, end = query_blocks(b, mask, k0, spec.block_m, work.seqlen_q, work.seqlen_k)
    qd_strides = (params["q_stride_s"], params["do_stride_s"])
    qd = TileCopy(b, plan.qd_copy, plan.q_tile.stride, tid, qd_strides)

    zero = f32_const(b, 0.0, op.c.length, name="dkv_acc")
    count = plan.d_reps * plan.key_reps
    inits = [zero] * (2 * count)

    def body(qt: Value, *carried: Value) -> list[Value]:
        dv = [list(carried[rd * plan.key_reps:(rd + 1) * plan.key_reps]) for rd in range(plan.d_reps)]
        dk = [list(carried[count + rd * plan.key_reps:count + (rd + 1) * plan.key_reps]) for rd in range(plan.d_reps)]
        q0 = mul_i32(b, qt, spec.block_m, name="q0")
        qd.run(b, (views["q"][1], views["do"][1]), qd_strides, q0, work.seqlen_q, (q_lds, do_lds), elem)
        b.barrier()
        s_accs = _products(b, plan, q_lds, k_lds, row_bases, line_bases, elem, "s")
        dp_accs = _products(b, plan, do_lds, v_lds, row_bases, line_bases, elem, "dp")
        probs: list[list[list[Value]]] = []
        dss: list[list[list[Value]]] = []
        for rq in range(plan.q_reps):
            p_rows: list[list[Value]] = []
            ds_rows: list[list[Value]] = []
            base_row = b.add(add_i32(b, q0, rq * op.m), row_lane, name="row")
            limits, lse2s, deltas = [], [], []
            for slot in range(op.c.length):
                row = add_i32(b, base_row, plan.c_row.slot_offsets[slot])
                index = mul_i32(b, b.add(stat_row0, row), 4)
                lse2 = b.buffer_load(lse2_rsrc, index, f32, name="lse2")
                if _fault == "lse_natural":
                    lse2 = b.mul(lse2, f32_const(b, LN2, 1))
                delta = b.buffer_load(delta_rsrc, index, f32, name="delta")
                limits.append(row_limit(b, mask, row, work.seqlen_q, work.seqlen_k))
                lse2s.append(lse2)
                deltas.append(delta)
            for rk in range(plan.key_reps):
                p_slots, ds_slots = [], []
                for slot in range(op.c.length):
                    seen = b.cmpi("sle", keys[rk * classes + class_of[slot]], limits[slot], name="seen")
                    p = recompute_p(b, b.extract(s_accs[rq][rk], slot), scale2, lse2s[slot], seen)
                    ds = dscore(b, p, b.extract(dp_accs[rq][rk], slot), deltas[slot])
                    p_slots.append(p)
                    ds_slots.append(b.select(seen, ds, f32_const(b, 0.0, 1), name="ds"))
                p_rows.append(p_slots)
                ds_rows.append(ds_slots)
            probs.append(p_rows)
            dss.append(ds_rows)
        pfrags = _b_operands(b, plan, probs, p_lds, store_bases, elem, "p")
        dsfrags = _b_operands(b, plan, dss, ds_lds, store_bases, elem, "ds")
        if ds_lds is not None:
            b.barrier()
        if pfrags is None:
            assert p_lds is not None
            pfrags = _load_b(b, plan, p_lds, load_bases, elem, "p")
        if dsfrags is None:
            assert ds_lds is not None
            dsfrags = _load_b(b, plan, ds_lds, load_bases, elem, "ds")
        qstride = plan.q_tile.stride
        for step in range(plan.q_steps):
            for rd in range(plan.d_reps):
                extra = step * op.k * qstride + rd * op.m
                do_t = load_fragment(b, do_lds, cols_base, plan.cols_a, extra, elem, [spec.d_chunk], name="dot_frag")
                q_t = load_fragment(b, q_lds, cols_base, plan.cols_a, extra, elem, [spec.d_chunk], name="qt_frag")
                for rk in range(plan.key_reps):
                    dv[rd][rk] = b.mma(op.id, do_t, pfrags[rk][step], dv[rd][rk], name="dv_acc")
                    dk[rd][rk] = b.mma(op.id, q_t, dsfrags[rk][step], dk[rd][rk], name="dk_acc")
        if spec.dq_mode == "atomic":
            assert ds_lds is not None and kt_base is not None and dst_base is not None
            _dq_atomic(b, spec, plan, params, views, k_lds, ds_lds, kt_base, dst_base, q0, row_lane, col_lane,
                       work.seqlen_q, scale, elem, out_d0)
        b.barrier()
        return [acc for accs in dv for acc in accs] + [acc for accs in dk for acc in accs]

    names = ["dv_acc"] * count + ["dk_acc"] * count
    out = b.for_(first, end, const_i32(b, 1), inits, body, names=names, iv_name="qt")
    accs = {"dv": [list(out[rd * plan.key_reps:(rd + 1) * plan.key_reps]) for rd in range(plan.d_reps)],
            "dk": [list(out[count + rd * plan.key_reps:count + (rd + 1) * plan.key_reps])
                   for rd in range(plan.d_reps)]}
    _epilogue(b, spec, plan, params, views, keys, row_lane, work.seqlen_k, accs, dk_scale, out_d0)
    kernel = b.finish()
    verify(kernel, arch=target)
    return kernel
