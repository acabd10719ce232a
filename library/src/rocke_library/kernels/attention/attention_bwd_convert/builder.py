"""Python builder of the attention_bwd_convert family (the C++ twin mirrors it function for function).

Thread g (global id) owns the vec elements g % (head_dim / vec) * vec .. of row
g / (head_dim / vec) of each output it converts; a workspace row is one (token, head) of head_dim
contiguous f32. For dq (dq_mode=atomic) the rows are [B, S_q, H_q] (varlen [total_q, H_q]), for
dk and dv [B, S_k, H_kv] ([total_k, H_kv]). The thread loads its f32 vector from the workspace
(dkv_mode=split: the `group` slices of query heads kv_head * group .. summed in order), rounds it
to the input dtype (nearest even) and stores it through the output strides; rows past the end
drop their loads and stores (bounds-checked buffer accesses).
"""

from __future__ import annotations

from rocke.arch import ArchTarget, get_arch
from rocke.families.spec import check_wave_multiple
from rocke.helpers import (
    buffer_rsrc,
    const_i32,
    divu_i32,
    elem_bytes,
    from_f32,
    global_id_x,
    ir_type,
    masked_offset,
    mul_i32,
    remu_i32,
    vector_type,
)
from rocke.ir import Builder, KernelDef, Value, f32, i32, ptr, verify

from ..common import strided_extent, strided_index
from .spec import AttentionBwdConvertSpec

# Test-only broken variant (negative control): dkv_mode=split counts only the first query head of
# each group (the GQA sum missing).
FAULTS = ("", "gqa_first_head")
F32_BYTES = elem_bytes("f32")


def check_arch(spec: AttentionBwdConvertSpec, target: ArchTarget) -> None:
    """The arch-dependent rules (SpecError)."""
    check_wave_multiple(spec, "block", spec.block, target)


def kernel_params(b: Builder, spec: AttentionBwdConvertSpec) -> dict[str, Value]:
    """Declare the kernel arguments in launch-contract order; returns them by name."""
    elem = ir_type(spec.dtype)
    params = {}
    for tensor in spec.tensors:
        params[f"{tensor}_acc"] = b.param(f"{tensor}_acc", ptr(f32, "global"), noalias=True, readonly=True)
    for tensor in spec.tensors:
        params[tensor] = b.param(tensor, ptr(elem, "global"), noalias=True, writeonly=True)
    sizes = ("batch", "seqlen_q", "seqlen_k") if spec.seq_mode == "batched" else ("total_q", "total_k")
    for name in (*sizes, "heads_q", "heads_kv", "group"):
        params[name] = b.param(name, i32)
    dims = ("b", "s", "h") if spec.seq_mode == "batched" else ("s", "h")
    for tensor in spec.tensors:
        for dim in dims:
            params[f"{tensor}_stride_{dim}"] = b.param(f"{tensor}_stride_{dim}", i32)
    return params


def _convert(b: Builder, spec: AttentionBwdConvertSpec, params: dict[str, Value], tensor: str, row: Value,
             first: Value, fault: str) -> None:
    """Convert the thread's vector (row `row`, elements first ..) of one output."""
    elem = ir_type(spec.dtype)
    esize = elem_bytes(spec.dtype)
    is_q = tensor == "dq"
    heads = params["heads_q"] if is_q else params["heads_kv"]
    side = "q" if is_q else "k"
    seqlen = params[f"seqlen_{side}"] if spec.seq_mode == "batched" else params[f"total_{side}"]
    tokens = b.mul(params["batch"], seqlen) if spec.seq_mode == "batched" else seqlen
    rows = b.mul(tokens, heads, name=f"{tensor}_rows")
    ok = b.cmpi("slt", row, rows, name="row_ok")
    h = b.remu(row, heads, name="h")
    token = b.divu(row, heads, name="token")
    if spec.seq_mode == "batched":
        s_len = b.maxu(seqlen, const_i32(b, 1), name="seqlen")
        s = b.remu(token, s_len, name="s")
        batch = b.divu(token, s_len, name="bat")
        coords, counts, dims = [batch, s, h], [params["batch"], seqlen, heads], ("b", "s", "h")
    else:
        coords, counts, dims = [token, h], [seqlen, heads], ("s", "h")
    strides = [params[f"{tensor}_stride_{d}"] for d in dims]
    out = strided_index(b, coords, strides, first)
    out_elems = strided_extent(b, counts, strides, spec.head_dim, rows, name=f"{tensor}_elems")
    vtype = vector_type(f32, spec.vec)
    split = not is_q and spec.dkv_mode == "split"
    if split:
        ws_heads = params["heads_q"]
        ws_rows = b.mul(tokens, ws_heads)
        ws_row0 = b.add(b.mul(token, ws_heads), b.mul(h, params["group"]), name="ws_row0")
    else:
        ws_rows = rows
        ws_row0 = row
    ws = buffer_rsrc(b, params[f"{tensor}_acc"], mul_i32(b, ws_rows, spec.head_dim), F32_BYTES,
                     name=f"{tensor}_acc_rsrc")
    index0 = b.add(mul_i32(b, ws_row0, spec.head_dim), first, name="ws_index")
    value = b.buffer_load(ws, masked_offset(b, ok, index0, F32_BYTES), vtype, name=f"{tensor}_f32")
    if split and fault != "gqa_first_head":

        def body(g: Value, acc: Value) -> list[Value]:
            index = b.add(index0, mul_i32(b, g, spec.head_dim))
            part = b.buffer_load(ws, masked_offset(b, ok, index, F32_BYTES), vtype, name="part")
            return [b.add(acc, part, name="sum")]

        value = b.for_(const_i32(b, 1), params["group"], const_i32(b, 1), [value], body, names=["sum"],
                       iv_name="g")[0]
    dst = buffer_rsrc(b, params[tensor], out_elems, esize, name=f"{tensor}_rsrc")
    b.buffer_store(dst, masked_offset(b, ok, out, esize), from_f32(b, value, elem, spec.vec, name=tensor))


def build(spec: AttentionBwdConvertSpec, arch: str, *, _fault: str = "") -> KernelDef:
    """The verified kernel for spec on arch; SpecError when the arch refuses the spec."""
    if _fault not in FAULTS:
        raise ValueError(f"unknown fault '{_fault}'")
    target = get_arch(arch)
    check_arch(spec, target)
    b = Builder(spec.kernel_name(), max_workgroup_size=spec.block)
    params = kernel_params(b, spec)
    vec_id = global_id_x(b, spec.block)
    row = divu_i32(b, vec_id, spec.head_dim // spec.vec, name="row")
    first = mul_i32(b, remu_i32(b, vec_id, spec.head_dim // spec.vec), spec.vec, name="first")
    for tensor in spec.tensors:
        _convert(b, spec, params, tensor, row, first, _fault)
    kernel = b.finish()
    verify(kernel, arch=target)
    return kernel
