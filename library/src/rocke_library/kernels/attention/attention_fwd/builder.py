"""Python builder of the attention_fwd family (the C++ twin mirrors it function for function).

Workgroup (x, y, z) owns query rows x * block_m .. of query head y of sequence z (work decode:
kernels/attention/common/work.py); wave w owns rows w * block_m / waves .. of the block. Before the
key loop every lane reads its Q^T fragments straight from global memory (bounds-checked buffer
loads: rows past the sequence read 0) and keeps them in registers. Per key block of block_n (the
loop bound is computed on the device, so fully masked blocks are never visited):

  1. every thread copies its share of K and V into LDS (K as [key][head_dim + pad], V transposed
     as [head_dim][key + pad]); keys past the sequence read 0; barrier;
  2. S^T = K Q^T through the catalog MMA, in f32;
  3. online softmax per query row (common/softmax.py): scores scaled by scale * log2(e), masked
     element-wise to -inf (common/mask.py), p = exp2(s - m), O rescaled by alpha;
  4. P rounded to the input dtype becomes the B operand of the second MMA: in registers where
     the layouts allow it (rocke.helpers.plan_chain), else through each wave's rows of an LDS tile
     (store, barrier, load);
  5. O^T += V^T P^T; barrier (the next copy overwrites K and V).

The epilogue divides by l (0 for a row that saw no key), stores O in the input dtype and the
natural-log LSE (f32, -inf for such rows) through buffer resources; rows past the sequence drop.
"""

from __future__ import annotations

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
    guaranteed_align,
    ir_type,
    load_fragment,
    masked_offset,
    mul_i32,
    store_fragment,
    tile_access,
    vector_type,
)
from rocke.ir import Builder, KernelDef, ScalarType, Value, f32, i32, ptr, verify

from ..common import LOG2E, Work, decode_work, finalize, key_blocks, online_update, seq_view, visible_limit
from .plan import MAX_ACCESS_ELEMS, AttentionPlan, plan_attention, runs
from .spec import AttentionFwdSpec

# Test-only broken variants (negative controls): LSE left in log2 units, causal mask dropped, scale
# applied twice, query head h mapped to kv head h % h_kv.
FAULTS = ("", "lse_log2", "no_causal", "scale_twice", "wrong_kv_head")
TENSORS = ("q", "k", "v", "o")


def kernel_params(b: Builder, spec: AttentionFwdSpec) -> dict[str, Value]:
    """Declare the kernel arguments in launch-contract order; returns them by name."""
    elem = ir_type(spec.dtype)
    params = {
        "q": b.param("q", ptr(elem, "global"), noalias=True, readonly=True),
        "k": b.param("k", ptr(elem, "global"), noalias=True, readonly=True),
        "v": b.param("v", ptr(elem, "global"), noalias=True, readonly=True),
        "o": b.param("o", ptr(elem, "global"), noalias=True, writeonly=True),
        "lse": b.param("lse", ptr(f32, "global"), noalias=True, writeonly=True),
    }
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


def _views(b: Builder, spec: AttentionFwdSpec, params: dict[str, Value], work: Work) -> dict[str, tuple[Value, Value]]:
    """(row-0 pointer, buffer resource) of the workgroup's Q, K, V and O sequences."""
    esize = elem_bytes(spec.dtype)
    views = {}
    for tensor in TENSORS:
        is_q = tensor in ("q", "o")
        head = work.head if is_q else work.kv_head
        seqlen = work.seqlen_q if is_q else work.seqlen_k
        start = work.q_start if is_q else work.k_start
        batch_offset = None
        if spec.seq_mode == "batched":
            batch_offset = b.mul(work.batch, params[f"{tensor}_stride_b"])
        views[tensor] = seq_view(b, params[tensor], batch_offset, start, params[f"{tensor}_stride_s"], head,
                                 params[f"{tensor}_stride_h"], seqlen, spec.head_dim, esize, name=tensor)
    return views


def _load_q(b: Builder, spec: AttentionFwdSpec, plan: AttentionPlan, rsrc: Value, stride_s: Value, lane: Value,
            row0: Value, seqlen_q: Value, elem: ScalarType) -> list[list[Value]]:
    """frags[step][rep]: the Q^T (B operand) fragments of the wave's rows, from global memory."""
    op = plan.op
    esize = elem_bytes(spec.dtype)
    d_lane = emit_lane_part(b, plan.q_row.lane_part, lane)
    q_lane = emit_lane_part(b, plan.q_col.lane_part, lane)
    pieces = runs(plan.q_row.slot_offsets, MAX_ACCESS_ELEMS)
    oks, lines = [], []
    for rep in range(plan.q_reps):
        row = b.add(add_i32(b, row0, rep * op.n), q_lane, name="q_row")
        oks.append(b.cmpi("slt", row, seqlen_q))
        lines.append(b.add(b.mul(row, stride_s), d_lane))
    frags: list[list[Value]] = []
    for step in range(plan.qk_steps):
        row_frags = []
        for rep in range(plan.q_reps):
            ok, line = oks[rep], lines[rep]
            frag = b.splat(b.const(0.0, elem), op.b.length)
            for first, count in pieces:
                index = add_i32(b, line, step * op.k + plan.q_row.slot_offsets[first])
                part = b.buffer_load(rsrc, masked_offset(b, ok, index, esize), vector_type(elem, count))
                for j in range(count):
                    frag = b.insert(frag, part if count == 1 else b.extract(part, j), first + j)
            row_frags.append(frag)
        frags.append(row_frags)
    return frags


class KvCopy:
    """One thread's share of the K / V tile copy, set up once before the key loop."""

    def __init__(self, b: Builder, plan: AttentionPlan, tid: Value, strides: tuple[Value, Value]):
        self.plan = plan
        self.lines: list[Value] = []
        self.firsts: list[Value] = []
        self.bases: list[tuple[Value, Value]] = []  # (K, V) element index of the access at key block 0
        for i in range(plan.copy.per_thread):
            line, first = tile_access(b, plan.copy, tid, i)
            self.lines.append(line)
            self.firsts.append(first)
            self.bases.append((b.add(b.mul(line, strides[0]), first, name="k_index"),
                               b.add(b.mul(line, strides[1]), first, name="v_index")))

    def run(self, b: Builder, views: dict[str, tuple[Value, Value]], strides: tuple[Value, Value], k0: Value,
            seqlen_k: Value, lds: tuple[Value, Value], elem: ScalarType) -> None:
        """Copy the key block at k0 into the K and V^T tiles (keys past seqlen_k read 0)."""
        plan = self.plan
        vec = plan.copy.vec
        esize = elem.bits // 8
        vtype = vector_type(elem, vec)
        shifts = (b.mul(k0, strides[0]), b.mul(k0, strides[1]))
        values = []
        for i in range(plan.copy.per_thread):
            ok = b.cmpi("slt", b.add(k0, self.lines[i]), seqlen_k)
            pair = []
            for t, tensor in enumerate(("k", "v")):
                offset = masked_offset(b, ok, b.add(self.bases[i][t], shifts[t]), esize)
                pair.append(b.buffer_load(views[tensor][1], offset, vtype, name=f"{tensor}_vals"))
            values.append(pair)
        k_align = 0 if vec == 1 else guaranteed_align(esize, vec * esize, [plan.k_tile.stride, vec])
        for i in range(plan.copy.per_thread):
            k_index = b.add(mul_i32(b, self.lines[i], plan.k_tile.stride), self.firsts[i])
            b.lds_store(lds[0], k_index, values[i][0], align=k_align)
            v_index = b.add(mul_i32(b, self.firsts[i], plan.v_tile.stride), self.lines[i])
            for j in range(vec):
                element = values[i][1] if vec == 1 else b.extract(values[i][1], j)
                b.lds_store(lds[1], add_i32(b, v_index, j * plan.v_tile.stride), element)


def _scores(b: Builder, spec: AttentionFwdSpec, plan: AttentionPlan, k_lds: Value, k_bases: list[Value],
            qfrags: list[list[Value]], elem: ScalarType) -> list[list[Value]]:
    """acc[key_rep][q_rep]: S^T = K Q^T of the key block, in f32."""
    op = plan.op
    zero = f32_const(b, 0.0, op.c.length, name="s_acc")
    accs = [[zero] * plan.q_reps for _ in range(plan.key_reps)]
    for step in range(plan.qk_steps):
        for rk in range(plan.key_reps):
            kfrag = load_fragment(b, k_lds, k_bases[rk], plan.k_frag, step * op.k, elem, [], name="k_frag")
            for rq in range(plan.q_reps):
                accs[rk][rq] = b.mma(op.id, kfrag, qfrags[step][rq], accs[rk][rq], name="s")
    return accs


def _p_operands(b: Builder, spec: AttentionFwdSpec, plan: AttentionPlan, probs: list[list[list[Value]]],
                p_lds: Value | None, p_bases: tuple[list[Value], list[Value]] | None, elem: ScalarType
                ) -> list[list[Value]]:
    """frags[step][q_rep]: P^T as the B operand of O^T += V^T P^T, rounded to the input dtype.
    probs[q_rep][key_rep][slot] are the f32 probabilities in the S^T C layout."""
    op = plan.op
    rounded = [[[b.truncf(p, elem) for p in slots] for slots in reps] for reps in probs]
    if plan.chain is not None:
        return [[chain_fragment(b, plan.chain, step, rounded[rq], elem, name="p_frag") for rq in range(plan.q_reps)]
                for step in range(plan.pv_steps)]
    assert p_lds is not None and p_bases is not None and plan.p_store is not None and plan.p_load is not None
    for rq in range(plan.q_reps):
        for rk in range(plan.key_reps):
            frag = b.splat(b.const(0.0, elem), op.c.length)
            for slot, value in enumerate(rounded[rq][rk]):
                frag = b.insert(frag, value, slot)
            store_fragment(b, p_lds, p_bases[0][rq], plan.p_store, rk * op.m, frag, elem, [])
    b.barrier()
    return [[load_fragment(b, p_lds, p_bases[1][rq], plan.p_load, step * op.k, elem, [], name="p_frag")
             for rq in range(plan.q_reps)] for step in range(plan.pv_steps)]


def _epilogue(b: Builder, spec: AttentionFwdSpec, plan: AttentionPlan, params: dict[str, Value], work: Work,
              views: dict[str, tuple[Value, Value]], lane: Value, rows: list[Value], accs: list[list[Value]],
              ms: list[Value], ls: list[Value], fault: str) -> None:
    """O = O^T / l in the input dtype and LSE (natural log) of every row inside the sequence."""
    op = plan.op
    elem = ir_type(spec.dtype)
    esize = elem_bytes(spec.dtype)
    o_rsrc = views["o"][1]
    d_lane = emit_lane_part(b, plan.c_row.lane_part, lane)
    pieces = runs(plan.c_row.slot_offsets, MAX_ACCESS_ELEMS)
    if spec.seq_mode == "batched":
        lse_rows = b.mul(b.add(b.mul(work.batch, params["heads_q"]), work.head), work.seqlen_q)
        lse_count = b.mul(b.mul(params["batch"], params["heads_q"]), work.seqlen_q)
    else:
        assert work.q_start is not None
        lse_rows = b.add(b.mul(work.head, params["total_q"]), work.q_start)
        lse_count = b.mul(params["heads_q"], params["total_q"])
    lse_rsrc = b.make_rsrc(params["lse"], mul_i32(b, lse_count, 4), name="lse_rsrc")
    leader_bits = 0
    for mask in plan.group:
        leader_bits |= mask
    leader = b.cmpi("eq", b.and_(lane, const_i32(b, leader_bits)), const_i32(b, 0), name="leader")
    for rq in range(plan.q_reps):
        inv, lse = finalize(b, ms[rq], ls[rq], plan.group, lse_log2=fault == "lse_log2")
        row = rows[rq]
        ok = b.cmpi("slt", row, work.seqlen_q, name="row_ok")
        line = b.add(b.mul(row, params["o_stride_s"]), d_lane)
        for rd in range(plan.d_reps):
            scaled = b.mul(accs[rd][rq], b.splat(inv, op.c.length), name="o")
            for first, count in pieces:
                index = add_i32(b, line, rd * op.m + plan.c_row.slot_offsets[first])
                if count == 1:
                    value = b.truncf(b.extract(scaled, first), elem)
                else:
                    part = b.splat(b.const(0.0, f32), count)
                    for j in range(count):
                        part = b.insert(part, b.extract(scaled, first + j), j)
                    value = b.truncf(part, vector_type(elem, count))
                b.buffer_store(o_rsrc, masked_offset(b, ok, index, esize), value)
        lse_ok = b.and_(ok, leader)
        b.buffer_store(lse_rsrc, masked_offset(b, lse_ok, b.add(lse_rows, row), 4), lse)


def build(spec: AttentionFwdSpec, arch: str, *, _fault: str = "") -> KernelDef:
    """The verified kernel for spec on arch; SpecError when the arch refuses the spec."""
    if _fault not in FAULTS:
        raise ValueError(f"unknown fault '{_fault}'")
    target = get_arch(arch)
    plan = plan_attention(spec, target)
    op = plan.op
    elem = ir_type(spec.dtype)
    mask = "none" if _fault == "no_causal" else spec.mask
    b = Builder(spec.kernel_name(), max_workgroup_size=plan.threads)
    params = kernel_params(b, spec)
    k_lds = alloc_tile(b, plan.k_tile, elem, name="k_lds")
    v_lds = alloc_tile(b, plan.v_tile, elem, name="vt_lds")
    p_lds = alloc_tile(b, plan.p_tile, elem, name="p_lds") if plan.p_tile is not None else None

    tid = b.thread_id_x(name="tid")
    lane = b.lane_id(name="lane")
    wave = b.wave_id(name="wave")
    work = decode_work(b, spec.seq_mode, spec.block_m, params, wrong_kv_head=_fault == "wrong_kv_head")
    views = _views(b, spec, params, work)
    scale = params["scale"]
    if _fault == "scale_twice":
        scale = b.mul(scale, scale)
    scale2 = b.mul(scale, f32_const(b, LOG2E, 1), name="scale_log2")
    wave_row0 = mul_i32(b, wave, spec.wave_rows, name="wave_row0")
    block_row0 = b.add(work.q0, wave_row0, name="row0")
    qfrags = _load_q(b, spec, plan, views["q"][1], params["q_stride_s"], lane, block_row0, work.seqlen_q, elem)

    key_lane = emit_lane_part(b, plan.c_row.lane_part, lane)
    q_lane = emit_lane_part(b, plan.c_col.lane_part, lane)
    rows = [b.add(add_i32(b, block_row0, rq * op.n), q_lane, name="row") for rq in range(plan.q_reps)]
    rooms = [b.sub(visible_limit(b, mask, row, work.seqlen_q, work.seqlen_k), key_lane, name="room") for row in rows]
    strides = (params["k_stride_s"], params["v_stride_s"])
    copy = KvCopy(b, plan, tid, strides)
    k_bases = [fragment_base(b, plan.k_frag, lane, const_i32(b, rk * op.m), name="k_frag_base")
               for rk in range(plan.key_reps)]
    v_bases = [fragment_base(b, plan.v_frag, lane, const_i32(b, rd * op.m), name="vt_frag_base")
               for rd in range(plan.d_reps)]
    p_bases = None
    if plan.p_store is not None and plan.p_load is not None:
        lines = [add_i32(b, wave_row0, rq * op.n) for rq in range(plan.q_reps)]
        p_bases = ([fragment_base(b, plan.p_store, lane, line, name="p_store_base") for line in lines],
                   [fragment_base(b, plan.p_load, lane, line, name="p_load_base") for line in lines])
    blocks = key_blocks(b, mask, work.q0, spec.block_m, spec.block_n, work.seqlen_q, work.seqlen_k)

    o_zero = f32_const(b, 0.0, op.c.length, name="o_acc")
    count_o = plan.d_reps * plan.q_reps
    inits = [o_zero] * count_o + [f32_const(b, float("-inf"), 1, name="m")] * plan.q_reps
    inits += [f32_const(b, 0.0, 1, name="l")] * plan.q_reps

    def body(kt: Value, *carried: Value) -> list[Value]:
        o_accs = [list(carried[rd * plan.q_reps:(rd + 1) * plan.q_reps]) for rd in range(plan.d_reps)]
        ms = list(carried[count_o:count_o + plan.q_reps])
        ls = list(carried[count_o + plan.q_reps:])
        k0 = mul_i32(b, kt, spec.block_n, name="k0")
        copy.run(b, views, strides, k0, work.seqlen_k, (k_lds, v_lds), elem)
        b.barrier()
        s_accs = _scores(b, spec, plan, k_lds, k_bases, qfrags, elem)
        probs: list[list[list[Value]]] = []
        for rq in range(plan.q_reps):
            room = b.sub(rooms[rq], k0, name="room_k0")
            scores = []
            for rk in range(plan.key_reps):
                for slot in range(op.c.length):
                    key = rk * op.m + plan.c_row.slot_offsets[slot]
                    visible = b.cmpi("sle", const_i32(b, key), room)
                    value = b.mul(b.extract(s_accs[rk][rq], slot), scale2)
                    scores.append(b.select(visible, value, f32_const(b, float("-inf"), 1), name="score"))
            p, ms[rq], ls[rq], alpha = online_update(b, scores, ms[rq], ls[rq], plan.group)
            probs.append([p[rk * op.c.length:(rk + 1) * op.c.length] for rk in range(plan.key_reps)])
            alpha_v = b.splat(alpha, op.c.length, name="alpha_v")
            for rd in range(plan.d_reps):
                o_accs[rd][rq] = b.mul(o_accs[rd][rq], alpha_v, name="o_acc")
        pfrags = _p_operands(b, spec, plan, probs, p_lds, p_bases, elem)
        for step in range(plan.pv_steps):
            for rd in range(plan.d_reps):
                vfrag = load_fragment(b, v_lds, v_bases[rd], plan.v_frag, step * op.k, elem, [], name="vt_frag")
                for rq in range(plan.q_reps):
                    o_accs[rd][rq] = b.mma(op.id, vfrag, pfrags[step][rq], o_accs[rd][rq], name="o_acc")
        b.barrier()
        return [acc for accs in o_accs for acc in accs] + ms + ls

    names = ["o_acc"] * count_o + ["m"] * plan.q_reps + ["l"] * plan.q_reps
    out = b.for_(const_i32(b, 0), blocks, const_i32(b, 1), inits, body, names=names, iv_name="kt")
    o_accs = [list(out[rd * plan.q_reps:(rd + 1) * plan.q_reps]) for rd in range(plan.d_reps)]
    ms = list(out[count_o:count_o + plan.q_reps])
    ls = list(out[count_o + plan.q_reps:])
    _epilogue(b, spec, plan, params, work, views, lane, rows, o_accs, ms, ls, _fault)
    kernel = b.finish()
    verify(kernel, arch=target)
    return kernel
