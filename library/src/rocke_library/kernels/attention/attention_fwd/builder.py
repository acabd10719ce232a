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
     element-wise to -inf (common/mask.py), p = exp2(s - m), O rescaled by alpha; where a C
     column depends on the slot (mma.sync), one row per query repeat and query class (the slots
     of one column offset, plan.col_slots);
  4. P rounded to the input dtype becomes the B operand of the second MMA: in registers where
     the layouts allow it (rocke.helpers.plan_chain), else through each wave's rows of an LDS tile
     (store, barrier, load);
  5. O^T += V^T P^T; barrier (the next copy overwrites K and V).

With double_buffer the K and V^T tiles have two stages: block 0 is copied into stage 0 before the
loop (and a barrier); iteration j issues the global loads of block j + 1 first, runs steps 2-5 on
stage j & 1, then stores the loaded block into stage (j & 1) ^ 1 and ends with the one barrier
(every wave has finished reading that stage, in iteration j - 1, before any thread writes it).

Where the plan takes the S = Q K^T orientation (plan.rows: mma.sync), Q is the A operand (its
fragments read from global memory as above), K^T and V the B operands read down the K and V^T
tiles' lines, S's C rows the queries, and P, rounded, is chained into the A operand of O = P V in
registers (rocke.helpers.plan_chain): no P tile, no barrier between the products.

The epilogue divides by l (0 for a row that saw no key), stores O in the input dtype and the
natural-log LSE (f32, -inf for such rows) through buffer resources; rows past the sequence drop.
"""

from __future__ import annotations

from dataclasses import dataclass

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
# applied twice, query head h mapped to kv head h % h_kv, and (double_buffer) the barrier after the
# copy into the other stage dropped.
FAULTS = ("", "lse_log2", "no_causal", "scale_twice", "wrong_kv_head", "no_stage_barrier")
TENSORS = ("q", "k", "v", "o")


@dataclass(frozen=True)
class Strides:
    """One tensor's element strides: batch (None when varlen), token, head."""

    b: Value | None
    s: Value
    h: Value


@dataclass(frozen=True)
class Params:
    """The kernel's parameters, in signature order (None where the seq_mode has no such argument:
    cu_seqlens_q/k and total_q are varlen's, seqlen_q/k and the batch strides batched's)."""

    q: Value
    k: Value
    v: Value
    o: Value
    lse: Value
    cu_seqlens_q: Value | None
    cu_seqlens_k: Value | None
    scale: Value
    batch: Value
    seqlen_q: Value | None
    seqlen_k: Value | None
    total_q: Value | None
    heads_q: Value
    group: Value
    q_strides: Strides
    k_strides: Strides
    v_strides: Strides
    o_strides: Strides


@dataclass(frozen=True)
class Views:
    """The buffer resources over the workgroup's Q, K, V and O sequences."""

    q: Value
    k: Value
    v: Value
    o: Value


@dataclass(frozen=True)
class KvValues:
    """One thread's vectors of a K / V block, loaded and not yet stored to LDS."""

    k: list[Value]
    v: list[Value]


def _strides_of(b: Builder, spec: AttentionFwdSpec, tensor: str) -> Strides:
    """Declare one tensor's stride arguments: {tensor}_stride_b (batched only), _s, _h."""
    batch = b.param(f"{tensor}_stride_b", i32) if spec.seq_mode == "batched" else None
    seq = b.param(f"{tensor}_stride_s", i32)
    head = b.param(f"{tensor}_stride_h", i32)
    return Strides(batch, seq, head)


def kernel_params(b: Builder, spec: AttentionFwdSpec) -> Params:
    """Declare the kernel arguments in launch-contract order."""
    elem = ir_type(spec.dtype)
    batched = spec.seq_mode == "batched"
    varlen = spec.seq_mode == "varlen"
    return Params(
        q=b.param("q", ptr(elem, "global"), noalias=True, readonly=True),
        k=b.param("k", ptr(elem, "global"), noalias=True, readonly=True),
        v=b.param("v", ptr(elem, "global"), noalias=True, readonly=True),
        o=b.param("o", ptr(elem, "global"), noalias=True, writeonly=True),
        lse=b.param("lse", ptr(f32, "global"), noalias=True, writeonly=True),
        cu_seqlens_q=b.param("cu_seqlens_q", ptr(i32, "global"), noalias=True, readonly=True) if varlen else None,
        cu_seqlens_k=b.param("cu_seqlens_k", ptr(i32, "global"), noalias=True, readonly=True) if varlen else None,
        scale=b.param("scale", f32),
        batch=b.param("batch", i32),
        seqlen_q=b.param("seqlen_q", i32) if batched else None,
        seqlen_k=b.param("seqlen_k", i32) if batched else None,
        total_q=b.param("total_q", i32) if varlen else None,
        heads_q=b.param("heads_q", i32),
        group=b.param("group", i32),
        q_strides=_strides_of(b, spec, "q"),
        k_strides=_strides_of(b, spec, "k"),
        v_strides=_strides_of(b, spec, "v"),
        o_strides=_strides_of(b, spec, "o"),
    )


def _work_args(spec: AttentionFwdSpec, params: Params) -> dict[str, Value]:
    """The kernel arguments common.decode_work reads, by name."""
    args = {"batch": params.batch, "heads_q": params.heads_q, "group": params.group}
    if spec.seq_mode == "batched":
        assert params.seqlen_q is not None and params.seqlen_k is not None
        args["seqlen_q"] = params.seqlen_q
        args["seqlen_k"] = params.seqlen_k
    else:
        assert params.cu_seqlens_q is not None and params.cu_seqlens_k is not None
        args["cu_seqlens_q"] = params.cu_seqlens_q
        args["cu_seqlens_k"] = params.cu_seqlens_k
    return args


def _view(b: Builder, spec: AttentionFwdSpec, work: Work, base: Value, strides: Strides, is_q: bool, name: str
          ) -> Value:
    """The buffer resource over the workgroup's sequence of one tensor (is_q: Q or O, else K or V)."""
    esize = elem_bytes(spec.dtype)
    head = work.head if is_q else work.kv_head
    seqlen = work.seqlen_q if is_q else work.seqlen_k
    start = work.q_start if is_q else work.k_start
    batch_offset = None
    if spec.seq_mode == "batched":
        assert strides.b is not None
        batch_offset = b.mul(work.batch, strides.b)
    _row0, rsrc = seq_view(b, base, batch_offset, start, strides.s, head, strides.h, seqlen, spec.head_dim, esize,
                           name=name)
    return rsrc


def _load_q(b: Builder, spec: AttentionFwdSpec, plan: AttentionPlan, rsrc: Value, stride_s: Value, lane: Value,
            row0: Value, seqlen_q: Value, elem: ScalarType) -> list[list[Value]]:
    """frags[step][rep]: the Q^T (B operand) fragments of the wave's rows, from global memory."""
    op = plan.op
    esize = elem_bytes(spec.dtype)
    d_lane = emit_lane_part(b, plan.q_row.lane_part, lane)
    q_lane = emit_lane_part(b, plan.q_col.lane_part, lane)
    pieces = runs(plan.q_row.slot_offsets, MAX_ACCESS_ELEMS)
    oks: list[Value] = []
    lines: list[Value] = []
    for rep in range(plan.q_reps):
        first_row = add_i32(b, row0, rep * op.n)
        row = b.add(first_row, q_lane, name="q_row")
        oks.append(b.cmpi("slt", row, seqlen_q))
        scaled = b.mul(row, stride_s)
        lines.append(b.add(scaled, d_lane))
    frags: list[list[Value]] = []
    for step in range(plan.qk_steps):
        row_frags = []
        for rep in range(plan.q_reps):
            ok = oks[rep]
            line = lines[rep]
            frag = b.splat(b.const(0.0, elem), op.b.length)
            for first, count in pieces:
                index = add_i32(b, line, step * op.k + plan.q_row.slot_offsets[first])
                offset = masked_offset(b, ok, index, esize)
                part = b.buffer_load(rsrc, offset, vector_type(elem, count))
                for j in range(count):
                    element = part if count == 1 else b.extract(part, j)
                    frag = b.insert(frag, element, first + j)
            row_frags.append(frag)
        frags.append(row_frags)
    return frags


def _load_q_rows(b: Builder, spec: AttentionFwdSpec, plan: AttentionPlan, rsrc: Value, stride_s: Value, lane: Value,
                 row0: Value, seqlen_q: Value, elem: ScalarType) -> list[list[Value]]:
    """frags[step][rep]: the Q (A operand) fragments of the wave's rows (S = Q K^T), from global
    memory; an A slot's query is the lane's plus the slot's offset (plan.q_col)."""
    op = plan.op
    esize = elem_bytes(spec.dtype)
    d_lane = emit_lane_part(b, plan.q_row.lane_part, lane)
    q_lane = emit_lane_part(b, plan.q_col.lane_part, lane)
    offsets = sorted(set(plan.q_col.slot_offsets))
    oks: list[Value] = []
    lines: list[Value] = []
    for rep in range(plan.q_reps):
        for offset in offsets:
            first_row = add_i32(b, row0, rep * op.m + offset)
            row = b.add(first_row, q_lane, name="q_row")
            oks.append(b.cmpi("slt", row, seqlen_q))
            scaled = b.mul(row, stride_s)
            lines.append(b.add(scaled, d_lane))
    frags: list[list[Value]] = []
    for step in range(plan.qk_steps):
        row_frags = []
        for rep in range(plan.q_reps):
            frag = b.splat(b.const(0.0, elem), op.a.length)
            for oi, offset in enumerate(offsets):
                at = rep * len(offsets) + oi
                slots = [slot for slot in range(op.a.length) if plan.q_col.slot_offsets[slot] == offset]
                for first, count in runs(tuple(plan.q_row.slot_offsets[slot] for slot in slots), MAX_ACCESS_ELEMS):
                    index = add_i32(b, lines[at], step * op.k + plan.q_row.slot_offsets[slots[first]])
                    offset_at = masked_offset(b, oks[at], index, esize)
                    part = b.buffer_load(rsrc, offset_at, vector_type(elem, count))
                    for j in range(count):
                        element = part if count == 1 else b.extract(part, j)
                        frag = b.insert(frag, element, slots[first + j])
            row_frags.append(frag)
        frags.append(row_frags)
    return frags


class KvCopy:
    """One thread's share of the K / V tile copy, set up once before the key loop."""

    def __init__(self, b: Builder, plan: AttentionPlan, tid: Value, k_stride: Value, v_stride: Value):
        self.plan = plan
        self.k_stride = k_stride
        self.v_stride = v_stride
        self.lines: list[Value] = []
        self.firsts: list[Value] = []
        self.k_bases: list[Value] = []  # element index of the K access at key block 0
        self.v_bases: list[Value] = []
        for i in range(plan.copy.per_thread):
            line, first = tile_access(b, plan.copy, tid, i)
            self.lines.append(line)
            self.firsts.append(first)
            k_rows = b.mul(line, k_stride)
            self.k_bases.append(b.add(k_rows, first, name="k_index"))
            v_rows = b.mul(line, v_stride)
            self.v_bases.append(b.add(v_rows, first, name="v_index"))

    def load(self, b: Builder, views: Views, k0: Value, seqlen_k: Value, elem: ScalarType) -> KvValues:
        """This thread's vectors of the key block at k0 (keys past seqlen_k read 0)."""
        plan = self.plan
        esize = elem.bits // 8
        vtype = vector_type(elem, plan.copy.vec)
        k_shift = b.mul(k0, self.k_stride)
        v_shift = b.mul(k0, self.v_stride)
        values = KvValues([], [])
        for i in range(plan.copy.per_thread):
            key = b.add(k0, self.lines[i])
            ok = b.cmpi("slt", key, seqlen_k)
            k_index = b.add(self.k_bases[i], k_shift)
            k_offset = masked_offset(b, ok, k_index, esize)
            values.k.append(b.buffer_load(views.k, k_offset, vtype, name="k_vals"))
            v_index = b.add(self.v_bases[i], v_shift)
            v_offset = masked_offset(b, ok, v_index, esize)
            values.v.append(b.buffer_load(views.v, v_offset, vtype, name="v_vals"))
        return values

    def store(self, b: Builder, k_lds: Value, v_lds: Value, k_stage: Value | None, v_stage: Value | None,
              values: KvValues, elem: ScalarType) -> None:
        """Write the vectors into the K tile ([key][head_dim + pad]) and the V^T tile
        ([head_dim][key + pad]), at the element offsets k_stage / v_stage of a stage (None: stage 0)."""
        plan = self.plan
        vec = plan.copy.vec
        esize = elem.bits // 8
        k_multiples = [plan.k_tile.stride, vec]
        if k_stage is not None:
            k_multiples.append(plan.k_tile.stage_elems)
        k_align = 0 if vec == 1 else guaranteed_align(esize, vec * esize, k_multiples)
        for i in range(plan.copy.per_thread):
            k_line = mul_i32(b, self.lines[i], plan.k_tile.stride)
            k_index = b.add(k_line, self.firsts[i])
            if k_stage is not None:
                k_index = b.add(k_index, k_stage)
            b.lds_store(k_lds, k_index, values.k[i], align=k_align)
            v_line = mul_i32(b, self.firsts[i], plan.v_tile.stride)
            v_index = b.add(v_line, self.lines[i])
            if v_stage is not None:
                v_index = b.add(v_index, v_stage)
            for j in range(vec):
                element = values.v[i] if vec == 1 else b.extract(values.v[i], j)
                index = add_i32(b, v_index, j * plan.v_tile.stride)
                b.lds_store(v_lds, index, element)


def _scores_of(b: Builder, spec: AttentionFwdSpec, plan: AttentionPlan, k_lds: Value, k_bases: list[Value],
               k_multiples: list[int], qfrags: list[list[Value]], elem: ScalarType) -> list[list[Value]]:
    """acc[key_rep][q_rep]: S^T = K Q^T of the key block (plan.rows: S = Q K^T), in f32."""
    op = plan.op
    zero = f32_const(b, 0.0, op.c.length, name="s_acc")
    accs = [[zero] * plan.q_reps for _ in range(plan.key_reps)]
    for step in range(plan.qk_steps):
        for rk in range(plan.key_reps):
            kfrag = load_fragment(b, k_lds, k_bases[rk], plan.k_frag, step * op.k, elem, k_multiples, name="k_frag")
            for rq in range(plan.q_reps):
                if plan.rows:
                    accs[rk][rq] = b.mma(op.id, qfrags[step][rq], kfrag, accs[rk][rq], name="s")
                else:
                    accs[rk][rq] = b.mma(op.id, kfrag, qfrags[step][rq], accs[rk][rq], name="s")
    return accs


def _p_operands(b: Builder, spec: AttentionFwdSpec, plan: AttentionPlan, probs: list[list[list[Value]]],
                p_lds: Value | None, p_store_bases: list[Value], p_load_bases: list[Value], elem: ScalarType
                ) -> list[list[Value]]:
    """frags[step][q_rep]: P^T as the B operand of O^T += V^T P^T, rounded to the input dtype.
    probs[q_rep][key_rep][slot] are the f32 probabilities in the S^T C layout."""
    op = plan.op
    rounded = [[[b.truncf(p, elem) for p in slots] for slots in reps] for reps in probs]
    if plan.chain is not None:
        return [[chain_fragment(b, plan.chain, step, rounded[rq], elem, name="p_frag") for rq in range(plan.q_reps)]
                for step in range(plan.pv_steps)]
    assert p_lds is not None and plan.p_store is not None and plan.p_load is not None
    for rq in range(plan.q_reps):
        for rk in range(plan.key_reps):
            frag = b.splat(b.const(0.0, elem), op.c.length)
            for slot, value in enumerate(rounded[rq][rk]):
                frag = b.insert(frag, value, slot)
            store_fragment(b, p_lds, p_store_bases[rq], plan.p_store, rk * op.m, frag, elem, [])
    b.barrier()
    return [[load_fragment(b, p_lds, p_load_bases[rq], plan.p_load, step * op.k, elem, [], name="p_frag")
             for rq in range(plan.q_reps)] for step in range(plan.pv_steps)]


def _epilogue(b: Builder, spec: AttentionFwdSpec, plan: AttentionPlan, params: Params, work: Work, views: Views,
              lane: Value, rows: list[Value], accs: list[list[Value]], ms: list[Value], ls: list[Value], fault: str
              ) -> None:
    """O = O^T / l in the input dtype and LSE (natural log) of every row inside the sequence."""
    op = plan.op
    elem = ir_type(spec.dtype)
    esize = elem_bytes(spec.dtype)
    o_rsrc = views.o
    d_form = plan.c_col if plan.rows else plan.c_row  # the C formula of the head_dim index
    d_atom = op.n if plan.rows else op.m
    d_lane = emit_lane_part(b, d_form.lane_part, lane)
    classes = len(plan.col_offsets)
    if spec.seq_mode == "batched":
        heads = b.mul(work.batch, params.heads_q)
        seq = b.add(heads, work.head)
        lse_rows = b.mul(seq, work.seqlen_q)
        all_heads = b.mul(params.batch, params.heads_q)
        lse_count = b.mul(all_heads, work.seqlen_q)
    else:
        assert work.q_start is not None and params.total_q is not None
        head_rows = b.mul(work.head, params.total_q)
        lse_rows = b.add(head_rows, work.q_start)
        lse_count = b.mul(params.heads_q, params.total_q)
    lse_bytes = mul_i32(b, lse_count, 4)
    lse_rsrc = b.make_rsrc(params.lse, lse_bytes, name="lse_rsrc")
    leader_bits = 0
    for mask in plan.group:
        leader_bits |= mask
    bits = const_i32(b, leader_bits)
    low = b.and_(lane, bits)
    leader = b.cmpi("eq", low, const_i32(b, 0), name="leader")
    for rq in range(plan.q_reps):
        for ci, slots in enumerate(plan.col_slots):
            at = rq * classes + ci
            inv, lse = finalize(b, ms[at], ls[at], plan.group, lse_log2=fault == "lse_log2")
            row = rows[at]
            ok = b.cmpi("slt", row, work.seqlen_q, name="row_ok")
            row_at = b.mul(row, params.o_strides.s)
            line = b.add(row_at, d_lane)
            pieces = runs(tuple(d_form.slot_offsets[slot] for slot in slots), MAX_ACCESS_ELEMS)
            for rd in range(plan.d_reps):
                inv_v = b.splat(inv, op.c.length)
                scaled = b.mul(accs[rd][rq], inv_v, name="o")
                for first, count in pieces:
                    index = add_i32(b, line, rd * d_atom + d_form.slot_offsets[slots[first]])
                    if count == 1:
                        element = b.extract(scaled, slots[first])
                        value = b.truncf(element, elem)
                    else:
                        part = b.splat(b.const(0.0, f32), count)
                        for j in range(count):
                            element = b.extract(scaled, slots[first + j])
                            part = b.insert(part, element, j)
                        value = b.truncf(part, vector_type(elem, count))
                    offset = masked_offset(b, ok, index, esize)
                    b.buffer_store(o_rsrc, offset, value)
            lse_ok = b.and_(ok, leader)
            lse_index = b.add(lse_rows, row)
            lse_offset = masked_offset(b, lse_ok, lse_index, 4)
            b.buffer_store(lse_rsrc, lse_offset, lse)


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
    work = decode_work(b, spec.seq_mode, spec.block_m, _work_args(spec, params),
                       wrong_kv_head=_fault == "wrong_kv_head")
    views = Views(
        q=_view(b, spec, work, params.q, params.q_strides, True, "q"),
        k=_view(b, spec, work, params.k, params.k_strides, False, "k"),
        v=_view(b, spec, work, params.v, params.v_strides, False, "v"),
        o=_view(b, spec, work, params.o, params.o_strides, True, "o"),
    )
    scale = params.scale
    if _fault == "scale_twice":
        scale = b.mul(scale, scale)
    scale2 = b.mul(scale, f32_const(b, LOG2E, 1), name="scale_log2")
    wave_row0 = mul_i32(b, wave, spec.wave_rows, name="wave_row0")
    block_row0 = b.add(work.q0, wave_row0, name="row0")
    load_q = _load_q_rows if plan.rows else _load_q
    qfrags = load_q(b, spec, plan, views.q, params.q_strides.s, lane, block_row0, work.seqlen_q, elem)

    # The C formulas of the key and the query (S^T: rows and columns; S: columns and rows) and the
    # extents of an atom along the queries, the keys of S and head_dim of O.
    key_form, query_form = (plan.c_col, plan.c_row) if plan.rows else (plan.c_row, plan.c_col)
    q_atom, key_atom, d_atom = (op.m, op.n, op.n) if plan.rows else (op.n, op.m, op.m)
    key_lane = emit_lane_part(b, key_form.lane_part, lane)
    q_lane = emit_lane_part(b, query_form.lane_part, lane)
    classes = len(plan.col_offsets)
    rows = []  # per query repeat and class
    for rq in range(plan.q_reps):
        for offset in plan.col_offsets:
            first_row = add_i32(b, block_row0, rq * q_atom + offset)
            rows.append(b.add(first_row, q_lane, name="row"))
    rooms = []
    for row in rows:
        limit = visible_limit(b, mask, row, work.seqlen_q, work.seqlen_k)
        rooms.append(b.sub(limit, key_lane, name="room"))
    copy = KvCopy(b, plan, tid, params.k_strides.s, params.v_strides.s)
    k_bases = []
    for rk in range(plan.key_reps):
        line0 = const_i32(b, rk * key_atom)
        k_bases.append(fragment_base(b, plan.k_frag, lane, line0, name="k_frag_base"))
    v_bases = []
    for rd in range(plan.d_reps):
        line0 = const_i32(b, rd * d_atom)
        v_bases.append(fragment_base(b, plan.v_frag, lane, line0, name="vt_frag_base"))
    p_store_bases: list[Value] = []
    p_load_bases: list[Value] = []
    if plan.p_store is not None and plan.p_load is not None:
        lines = [add_i32(b, wave_row0, rq * op.n) for rq in range(plan.q_reps)]
        for line in lines:
            p_store_bases.append(fragment_base(b, plan.p_store, lane, line, name="p_store_base"))
        for line in lines:
            p_load_bases.append(fragment_base(b, plan.p_load, lane, line, name="p_load_base"))
    blocks = key_blocks(b, mask, work.q0, spec.block_m, spec.block_n, work.seqlen_q, work.seqlen_k)

    o_zero = f32_const(b, 0.0, op.c.length, name="o_acc")
    count_o = plan.d_reps * plan.q_reps
    inits = [o_zero] * count_o
    m0 = f32_const(b, float("-inf"), 1, name="m")
    count_rows = plan.q_reps * classes
    inits += [m0] * count_rows
    l0 = f32_const(b, 0.0, 1, name="l")
    inits += [l0] * count_rows

    k_multiples: list[int] = []
    v_multiples: list[int] = []
    if spec.double_buffer:
        k_multiples.append(plan.k_tile.stage_elems)
        v_multiples.append(plan.v_tile.stage_elems)
        first = copy.load(b, views, const_i32(b, 0), work.seqlen_k, elem)
        copy.store(b, k_lds, v_lds, None, None, first, elem)
        b.barrier()

    def body(kt: Value, *carried: Value) -> list[Value]:
        o_accs = [list(carried[rd * plan.q_reps:(rd + 1) * plan.q_reps]) for rd in range(plan.d_reps)]
        ms = list(carried[count_o:count_o + count_rows])
        ls = list(carried[count_o + count_rows:])
        k0 = mul_i32(b, kt, spec.block_n, name="k0")
        k_now = k_bases
        v_now = v_bases
        stage = None
        values = None
        if spec.double_buffer:
            # Block kt sits in stage kt & 1 (the previous iteration copied it); load block kt + 1 now,
            # store it into the other stage after the products of block kt.
            stage = b.and_(kt, const_i32(b, 1), name="stage")
            next_k0 = add_i32(b, k0, spec.block_n, name="next_k0")
            values = copy.load(b, views, next_k0, work.seqlen_k, elem)
            k_offset = mul_i32(b, stage, plan.k_tile.stage_elems, name="k_stage")
            v_offset = mul_i32(b, stage, plan.v_tile.stage_elems, name="v_stage")
            k_now = [b.add(base, k_offset) for base in k_bases]
            v_now = [b.add(base, v_offset) for base in v_bases]
        else:
            values = copy.load(b, views, k0, work.seqlen_k, elem)
            copy.store(b, k_lds, v_lds, None, None, values, elem)
            b.barrier()
        s_accs = _scores_of(b, spec, plan, k_lds, k_now, k_multiples, qfrags, elem)
        probs: list[list[list[Value]]] = []
        for rq in range(plan.q_reps):
            slot_probs: list[list[Value | None]] = [[None] * op.c.length for _ in range(plan.key_reps)]
            alphas: list[Value] = []
            for ci, slots in enumerate(plan.col_slots):
                at = rq * classes + ci
                room = b.sub(rooms[at], k0, name="room_k0")
                scores = []
                for rk in range(plan.key_reps):
                    for slot in slots:
                        key = rk * key_atom + key_form.slot_offsets[slot]
                        visible = b.cmpi("sle", const_i32(b, key), room)
                        raw = b.extract(s_accs[rk][rq], slot)
                        value = b.mul(raw, scale2)
                        masked = f32_const(b, float("-inf"), 1)
                        scores.append(b.select(visible, value, masked, name="score"))
                p, ms[at], ls[at], alpha = online_update(b, scores, ms[at], ls[at], plan.group)
                for rk in range(plan.key_reps):
                    for j, slot in enumerate(slots):
                        slot_probs[rk][slot] = p[rk * len(slots) + j]
                alphas.append(alpha)
            probs.append([[p for p in slot_p if p is not None] for slot_p in slot_probs])
            if classes == 1:
                alpha_v = b.splat(alphas[0], op.c.length, name="alpha_v")
            else:
                alpha_v = b.splat(f32_const(b, 1.0, 1), op.c.length)
                for ci, slots in enumerate(plan.col_slots):
                    for slot in slots:
                        alpha_v = b.insert(alpha_v, alphas[ci], slot, name="alpha_v")
            for rd in range(plan.d_reps):
                o_accs[rd][rq] = b.mul(o_accs[rd][rq], alpha_v, name="o_acc")
        pfrags = _p_operands(b, spec, plan, probs, p_lds, p_store_bases, p_load_bases, elem)
        for step in range(plan.pv_steps):
            for rd in range(plan.d_reps):
                vfrag = load_fragment(b, v_lds, v_now[rd], plan.v_frag, step * op.k, elem, v_multiples,
                                      name="vt_frag")
                for rq in range(plan.q_reps):
                    if plan.rows:
                        o_accs[rd][rq] = b.mma(op.id, pfrags[step][rq], vfrag, o_accs[rd][rq], name="o_acc")
                    else:
                        o_accs[rd][rq] = b.mma(op.id, vfrag, pfrags[step][rq], o_accs[rd][rq], name="o_acc")
        if stage is not None:
            assert values is not None
            other = b.xor_(stage, const_i32(b, 1), name="next_stage")
            k_next = mul_i32(b, other, plan.k_tile.stage_elems, name="k_next")
            v_next = mul_i32(b, other, plan.v_tile.stage_elems, name="v_next")
            copy.store(b, k_lds, v_lds, k_next, v_next, values, elem)
        if _fault != "no_stage_barrier":
            b.barrier()
        return [acc for accs in o_accs for acc in accs] + ms + ls

    names = ["o_acc"] * count_o + ["m"] * count_rows + ["l"] * count_rows
    lb = const_i32(b, 0)
    step = const_i32(b, 1)
    out = b.for_(lb, blocks, step, inits, body, names=names, iv_name="kt")
    o_accs = [list(out[rd * plan.q_reps:(rd + 1) * plan.q_reps]) for rd in range(plan.d_reps)]
    ms = list(out[count_o:count_o + count_rows])
    ls = list(out[count_o + count_rows:])
    _epilogue(b, spec, plan, params, work, views, lane, rows, o_accs, ms, ls, _fault)
    kernel = b.finish()
    verify(kernel, arch=target)
    return kernel
