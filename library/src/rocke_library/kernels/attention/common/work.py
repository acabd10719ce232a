"""Work decode of the attention kernels: which (query block, head, batch) a workgroup owns and
where its sequences sit in memory.

Grid (x, y, z) = (query blocks, query heads, batch); a kernel whose blocks are shared by several
workgroups (attention_bwd_main's head_dim chunks) folds the part into x as block * parts + part.
Query head h reads kv head h / group, where group = h_q / h_kv is a kernel argument (1: MHA, h_q:
MQA). Batched: the sequence lengths are kernel arguments and sequence (b, h) starts at element
b * stride_b + h * stride_h. Varlen: sequence b holds tokens cu_seqlens[b] .. cu_seqlens[b + 1] - 1
(a zero-length sequence is legal) and starts at element cu_seqlens[b] * stride_s + h * stride_h.
Strides are in elements; the head_dim elements of one (token, head) are contiguous.
"""

from __future__ import annotations

from dataclasses import dataclass

from rocke.helpers import add_i32, buffer_rsrc, const_i32, mul_i32
from rocke.ir import Builder, Value, i32

SEQ_MODES = ("batched", "varlen")


@dataclass(frozen=True)
class Work:
    """What one workgroup owns, as device values (uniform over the workgroup)."""

    q0: Value  # first query row of the block, inside its sequence
    batch: Value
    head: Value  # query head
    kv_head: Value
    seqlen_q: Value
    seqlen_k: Value
    q_start: Value | None  # varlen: token of the sequence's first query (cu_seqlens_q[b]); batched: None
    k_start: Value | None
    part: Value | None = None  # decode_work(parts > 1): which of the block's parts (0 .. parts - 1)


def decode_work(b: Builder, seq_mode: str, block_m: int, params: dict[str, Value], *, parts: int = 1,
                wrong_kv_head: bool = False) -> Work:
    """The workgroup's (query block, head, batch), kv head and sequence bounds. params holds the
    kernel arguments by name (seqlen_q/seqlen_k when batched, cu_seqlens_q/k when varlen; heads_q,
    group). parts > 1: grid x is block * parts + part, parts workgroups sharing one block (Work.part).
    wrong_kv_head (tests only) maps query head h to kv head h % h_kv."""
    block = b.block_id_x()
    part = None
    if parts > 1:
        part = b.remu(block, const_i32(b, parts), name="part")
        block = b.divu(block, const_i32(b, parts), name="block")
    q0 = mul_i32(b, block, block_m, name="q0")
    head = b.block_id_y(name="head")
    batch = b.block_id_z(name="batch")
    if wrong_kv_head:
        kv_head = b.remu(head, b.divu(params["heads_q"], params["group"]), name="kv_head")
    else:
        kv_head = b.divu(head, params["group"], name="kv_head")
    if seq_mode == "batched":
        return Work(q0, batch, head, kv_head, params["seqlen_q"], params["seqlen_k"], None, None, part)
    count = add_i32(b, params["batch"], 1)
    starts = []
    for name in ("q", "k"):
        rsrc = buffer_rsrc(b, params[f"cu_seqlens_{name}"], count, 4, name=f"cu_{name}_rsrc")
        first = b.buffer_load(rsrc, mul_i32(b, batch, 4), i32, name=f"{name}_start")
        last = b.buffer_load(rsrc, mul_i32(b, add_i32(b, batch, 1), 4), i32, name=f"{name}_end")
        starts.append((first, b.sub(last, first, name=f"seqlen_{name}")))
    (q_start, seqlen_q), (k_start, seqlen_k) = starts
    return Work(q0, batch, head, kv_head, seqlen_q, seqlen_k, q_start, k_start, part)


def seq_view(b: Builder, base: Value, batch_offset: Value | None, start: Value | None, stride_s: Value,
             head: Value, stride_h: Value, seqlen: Value, head_dim: int, esize: int, *, name: str
             ) -> tuple[Value, Value]:
    """(pointer to row 0, buffer resource over exactly the sequence's rows) of one (sequence, head):
    the pointer is base + batch_offset + start * stride_s + head * stride_h and the resource spans
    (seqlen - 1) * stride_s + head_dim elements (none for an empty sequence)."""
    offset = b.mul(head, stride_h)
    if batch_offset is not None:
        offset = b.add(batch_offset, offset)
    if start is not None:
        offset = b.add(b.mul(start, stride_s), offset)
    row0 = b.ptr_add(base, offset, name=f"{name}_row0")
    extent = add_i32(b, b.mul(add_i32(b, seqlen, -1), stride_s), head_dim)
    some = b.cmpi("sgt", seqlen, const_i32(b, 0))
    elems = b.select(some, extent, const_i32(b, 0), name=f"{name}_elems")
    return row0, buffer_rsrc(b, row0, elems, esize, name=f"{name}_rsrc")
