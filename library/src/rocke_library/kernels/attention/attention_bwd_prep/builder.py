"""Python builder of the attention_bwd_prep family (the C++ twin mirrors it function for function).

Rows are the LSE's: batched r = (b * H_q + h) * S_q + s over [B, H_q, S_q], varlen
r = h * total_q + t over [H_q, total_q] (token t of any sequence: no cu_seqlens). Workgroup x owns
rows x * rows_per_block ..; head_dim / vec consecutive lanes share a row, each loads vec elements
of O and dO (bounds-checked buffer loads), multiplies them in f32 and sums; shuffle-xor joins the
row's lanes. The row's first lane loads LSE and stores

    LSE2 = LSE * log2(e), D = rowsum(dO * O)      (a live row: LSE > -inf)
    LSE2 = +inf,          D = 0                   (a dead row: LSE = -inf or NaN)

Then every thread zero-fills its share of the accumulation region zero_ws: workgroup x clears
zero_iters * block * 4 f32 elements from x * zero_iters * block * 4, one vector of 4 per thread
and iteration (stores past zero_count drop), so no later launch depends on a host memset.
"""

from __future__ import annotations

from rocke.arch import ArchTarget, get_arch
from rocke.families.spec import MAX_ACCESS_BYTES, check_wave_multiple
from rocke.helpers import (
    buffer_rsrc,
    const_i32,
    divu_i32,
    elem_bytes,
    f32_const,
    ir_type,
    masked_offset,
    mul_i32,
    remu_i32,
    to_f32,
    vector_type,
)
from rocke.ir import Builder, KernelDef, Value, f32, i32, ptr, verify

from ..common import LOG2E, group_reduce, strided_extent, strided_index
from .spec import AttentionBwdPrepSpec

# Test-only broken variants (negative controls): LSE2 left in natural-log units, D left 0 (as if
# prep were skipped), the zero-fill skipped.
FAULTS = ("", "lse_natural", "delta_zero", "no_zero_fill")
TENSORS = ("o", "do")
F32_BYTES = elem_bytes("f32")
ZERO_VEC = MAX_ACCESS_BYTES // F32_BYTES  # f32 elements per zero-fill store (the widest access)


def check_arch(spec: AttentionBwdPrepSpec, target: ArchTarget) -> None:
    """The arch-dependent rules (SpecError)."""
    check_wave_multiple(spec, "block", spec.block, target)
    if spec.row_lanes > target.wave_size:
        spec.fail("vec", f"head_dim / vec = {spec.row_lanes} lanes per row exceed the wave size "
                         f"{target.wave_size} of {target.name}")


def kernel_params(b: Builder, spec: AttentionBwdPrepSpec) -> dict[str, Value]:
    """Declare the kernel arguments in launch-contract order; returns them by name."""
    elem = ir_type(spec.dtype)
    params = {
        "o": b.param("o", ptr(elem, "global"), noalias=True, readonly=True),
        "do": b.param("do", ptr(elem, "global"), noalias=True, readonly=True),
        "lse": b.param("lse", ptr(f32, "global"), noalias=True, readonly=True),
        "lse2": b.param("lse2", ptr(f32, "global"), noalias=True, writeonly=True),
        "delta": b.param("delta", ptr(f32, "global"), noalias=True, writeonly=True),
        "zero_ws": b.param("zero_ws", ptr(f32, "global"), noalias=True, writeonly=True),
    }
    sizes = ("batch", "seqlen_q") if spec.seq_mode == "batched" else ("total_q",)
    for name in (*sizes, "heads_q", "zero_count", "zero_iters"):
        params[name] = b.param(name, i32)
    dims = ("b", "s", "h") if spec.seq_mode == "batched" else ("s", "h")
    for tensor in TENSORS:
        for dim in dims:
            params[f"{tensor}_stride_{dim}"] = b.param(f"{tensor}_stride_{dim}", i32)
    return params


def _row_count(b: Builder, spec: AttentionBwdPrepSpec, params: dict[str, Value]) -> Value:
    """Rows of the LSE: B * H_q * S_q (batched) or H_q * total_q (varlen)."""
    if spec.seq_mode == "batched":
        return b.mul(b.mul(params["batch"], params["heads_q"]), params["seqlen_q"], name="rows")
    return b.mul(params["heads_q"], params["total_q"], name="rows")


def _row_coords(b: Builder, spec: AttentionBwdPrepSpec, params: dict[str, Value], row: Value) -> list[Value]:
    """The (batch, s, h) (batched) or (t, h) (varlen) of LSE row `row` (divisors floored at 1)."""
    if spec.seq_mode == "batched":
        seqlen = b.maxu(params["seqlen_q"], const_i32(b, 1), name="seqlen")
        s = b.remu(row, seqlen, name="s")
        bh = b.divu(row, seqlen)
        h = b.remu(bh, params["heads_q"], name="h")
        batch = b.divu(bh, params["heads_q"], name="bat")
        return [batch, s, h]
    total = b.maxu(params["total_q"], const_i32(b, 1), name="total")
    t = b.remu(row, total, name="t")
    h = b.divu(row, total, name="h")
    return [t, h]


def _dims(spec: AttentionBwdPrepSpec, params: dict[str, Value], tensor: str) -> tuple[list[Value], list[Value]]:
    """(counts, strides) of a tensor's dimensions, outermost first (batched: batch, s, h; varlen: t, h)."""
    names = ("b", "s", "h") if spec.seq_mode == "batched" else ("s", "h")
    sizes = ("batch", "seqlen_q", "heads_q") if spec.seq_mode == "batched" else ("total_q", "heads_q")
    return [params[n] for n in sizes], [params[f"{tensor}_stride_{d}"] for d in names]


def _zero_fill(b: Builder, spec: AttentionBwdPrepSpec, params: dict[str, Value], tid: Value) -> None:
    """Workgroup x clears zero_iters * block * ZERO_VEC elements of zero_ws from its chunk start."""
    rsrc = buffer_rsrc(b, params["zero_ws"], params["zero_count"], F32_BYTES, name="zero_rsrc")
    step = spec.block * ZERO_VEC
    chunk = b.mul(b.block_id_x(), mul_i32(b, params["zero_iters"], step), name="chunk0")
    first = b.add(chunk, mul_i32(b, tid, ZERO_VEC), name="zero0")
    zeros = f32_const(b, 0.0, ZERO_VEC, name="zeros")

    def body(it: Value) -> list[Value]:
        index = b.add(first, mul_i32(b, it, step), name="zero_index")
        ok = b.cmpi("slt", index, params["zero_count"])
        b.buffer_store(rsrc, masked_offset(b, ok, index, F32_BYTES), zeros)
        return []

    b.for_(const_i32(b, 0), params["zero_iters"], const_i32(b, 1), [], body, iv_name="it")


def build(spec: AttentionBwdPrepSpec, arch: str, *, _fault: str = "") -> KernelDef:
    """The verified kernel for spec on arch; SpecError when the arch refuses the spec."""
    if _fault not in FAULTS:
        raise ValueError(f"unknown fault '{_fault}'")
    target = get_arch(arch)
    check_arch(spec, target)
    elem = ir_type(spec.dtype)
    esize = elem_bytes(spec.dtype)
    b = Builder(spec.kernel_name(), max_workgroup_size=spec.block)
    params = kernel_params(b, spec)
    tid = b.thread_id_x(name="tid")
    part = remu_i32(b, tid, spec.row_lanes, name="part")
    row = b.add(mul_i32(b, b.block_id_x(), spec.rows_per_block), divu_i32(b, tid, spec.row_lanes), name="row")
    rows = _row_count(b, spec, params)
    ok = b.cmpi("slt", row, rows, name="row_ok")
    first = mul_i32(b, part, spec.vec, name="first")
    vtype = vector_type(elem, spec.vec)
    coords = _row_coords(b, spec, params, row)
    values = []
    for tensor in TENSORS:
        counts, strides = _dims(spec, params, tensor)
        index = strided_index(b, coords, strides, first)
        elems = strided_extent(b, counts, strides, spec.head_dim, rows, name=f"{tensor}_elems")
        rsrc = buffer_rsrc(b, params[tensor], elems, esize, name=f"{tensor}_rsrc")
        raw = b.buffer_load(rsrc, masked_offset(b, ok, index, esize), vtype, name=f"{tensor}_vals")
        values.append(to_f32(b, raw, elem, spec.vec, name=f"{tensor}_f32"))
    prod = b.mul(values[0], values[1], name="prod")
    dot = prod if spec.vec == 1 else b.extract(prod, 0)
    for j in range(1, spec.vec):
        dot = b.add(dot, b.extract(prod, j), name="dot")
    masks = tuple(1 << k for k in range(spec.row_lanes.bit_length() - 1))
    dot = group_reduce(b, dot, "add", masks, name="delta_row")

    stat_rsrc = [buffer_rsrc(b, params[name], rows, F32_BYTES, name=f"{name}_rsrc")
                 for name in ("lse", "lse2", "delta")]
    lead = b.and_(ok, b.cmpi("eq", part, const_i32(b, 0)), name="lead")
    lse = b.buffer_load(stat_rsrc[0], masked_offset(b, ok, row, F32_BYTES), f32, name="lse")
    live = b.cmpf("ogt", lse, f32_const(b, float("-inf"), 1), name="live")
    lse2 = lse if _fault == "lse_natural" else b.mul(lse, f32_const(b, LOG2E, 1))
    lse2 = b.select(live, lse2, f32_const(b, float("inf"), 1), name="lse2")
    delta = b.select(live, dot, f32_const(b, 0.0, 1), name="delta")
    if _fault == "delta_zero":
        delta = f32_const(b, 0.0, 1)
    out = masked_offset(b, lead, row, F32_BYTES)
    b.buffer_store(stat_rsrc[1], out, lse2)
    b.buffer_store(stat_rsrc[2], out, delta)
    if _fault != "no_zero_fill":
        _zero_fill(b, spec, params, tid)
    kernel = b.finish()
    verify(kernel, arch=target)
    return kernel
