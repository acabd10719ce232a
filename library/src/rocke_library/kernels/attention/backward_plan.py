"""The attention backward as one plan: launch order, workspace layout, zero-init needs and the
argument bindings of every launch, as data a host (or the simulator) follows without the builders.

Conventions every backward family follows (library/docs/attention.md, "## Backward"):

* Launch order: attention_bwd_prep -> attention_bwd_main -> [attention_bwd_dq when
  dq_mode=split] -> [attention_bwd_convert when dq_mode=atomic or dkv_mode != direct].
* Problem: the forward's keys (batched: batch, seqlen_q, seqlen_k, heads_q, heads_kv; varlen:
  batch, max_seqlen_q, max_seqlen_k, total_q, total_k, heads_q, heads_kv) and optionally the
  strides (elements) of q, k, v, o, do, dq, dk, dv: batched {t}_stride_{b,s,h}, varlen
  {t}_stride_{s,h}; default contiguous [B, S, H, D] / [T, H, D]. head_dim is the specs'.
* User buffers (bound by argument name): inputs q, k, v, o, do (input dtype), lse (f32, the
  forward's natural-log LSE: batched [B, H_q, S_q], varlen [H_q, total_q]), varlen
  cu_seqlens_q, cu_seqlens_k (i32[B + 1]); outputs dq (like q), dk, dv (like k).
* Workspace: one f32 buffer, slices at 256-byte aligned offsets, in this order:
    lse2    f32 like lse: LSE * log2(e); +inf for a dead row (LSE = -inf or NaN)
    delta   f32 like lse: D = rowsum(dO * O) in f32; 0 for a dead row
    dq_acc  (dq_mode=atomic) f32 [B, S_q, H_q, D] / [total_q, H_q, D], contiguous
    dk_acc, dv_acc  (dkv_mode=atomic) f32 [B, S_k, H_kv, D] / [total_k, H_kv, D], contiguous,
            every query head of a group adds into its kv head (f32 global atomics);
            (dkv_mode=split) f32 [B, S_k, H_q, D] / [total_k, H_q, D], contiguous, one slice
            per query head, plain stores; convert sums the group's heads.
  The accumulation slices are contiguous from the first one to the end of the last (the "zero
  region"); attention_bwd_prep zero-fills the whole region (arguments zero_ws, zero_count), so
  the host zero-fills nothing (the plan's zero_init is empty).
* dq_mode=split: attention_bwd_dq writes dq in the input dtype through the dq strides (no
  workspace). dkv_mode=direct (h_q == h_kv): attention_bwd_main writes dk, dv in the input dtype.
* Argument names of the workspace slices in every launch: lse2, delta, dq_acc, dk_acc, dv_acc,
  zero_ws (the zero region); scalar arguments come from each family's launch contract, except
  scale (f32, the caller's: the problem's "scale", default 1 / sqrt(head_dim)).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

WORKSPACE_ALIGN = 256  # bytes; every slice offset is a multiple
PLAN_FORMAT = "rocke.plan/1"
LAUNCH_ORDER = ("attention_bwd_prep", "attention_bwd_main", "attention_bwd_dq", "attention_bwd_convert")
DQ_MODES = ("atomic", "split")
DKV_MODES = ("direct", "atomic", "split")
TENSORS = ("q", "k", "v", "o", "do", "dq", "dk", "dv")
INPUTS = ("q", "k", "v", "o", "do", "lse", "cu_seqlens_q", "cu_seqlens_k")
OUTPUTS = ("dq", "dk", "dv")
STAT_SLICES = ("lse2", "delta")
ACC_SLICES = ("dq_acc", "dk_acc", "dv_acc")
ZERO_REGION = "zero_ws"
BATCHED_KEYS = ("batch", "seqlen_q", "seqlen_k", "heads_q", "heads_kv")
VARLEN_KEYS = ("batch", "max_seqlen_q", "max_seqlen_k", "total_q", "total_k", "heads_q", "heads_kv")


def kv_tensor(tensor: str) -> bool:
    """Whether a tensor is laid out like K (rows of S_k and kv heads) rather than like Q."""
    return tensor in ("k", "v", "dk", "dv")


@dataclass(frozen=True)
class Slice:
    """One f32 workspace slice: byte offset (256-aligned), byte size and logical shape."""

    name: str
    offset: int
    bytes: int
    shape: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        return {"bytes": self.bytes, "dtype": "f32", "name": self.name, "offset": self.offset,
                "shape": list(self.shape)}


def align_up(value: int, align: int = WORKSPACE_ALIGN) -> int:
    return -(-value // align) * align


def stat_shape(seq_mode: str, sizes: Mapping[str, int]) -> tuple[int, ...]:
    """Shape of lse, lse2 and delta: batched [B, H_q, S_q], varlen [H_q, total_q]."""
    if seq_mode == "batched":
        return (sizes["batch"], sizes["heads_q"], sizes["seqlen_q"])
    return (sizes["heads_q"], sizes["total_q"])


def acc_shape(seq_mode: str, sizes: Mapping[str, int], name: str, head_dim: int, dkv_mode: str) -> tuple[int, ...]:
    """Shape of an accumulation slice (see the module docstring)."""
    if name == "dq_acc":
        heads = sizes["heads_q"]
        rows = (sizes["batch"], sizes["seqlen_q"]) if seq_mode == "batched" else (sizes["total_q"],)
    else:
        heads = sizes["heads_q"] if dkv_mode == "split" else sizes["heads_kv"]
        rows = (sizes["batch"], sizes["seqlen_k"]) if seq_mode == "batched" else (sizes["total_k"],)
    return (*rows, heads, head_dim)


def workspace_layout(seq_mode: str, sizes: Mapping[str, int], head_dim: int, dq_mode: str, dkv_mode: str
                     ) -> tuple[Slice, ...]:
    """The workspace slices in order: lse2, delta, then dq_acc (dq_mode=atomic), dk_acc and
    dv_acc (dkv_mode atomic or split), each at a 256-byte aligned offset."""
    names = list(STAT_SLICES)
    if dq_mode == "atomic":
        names.append("dq_acc")
    if dkv_mode != "direct":
        names += ["dk_acc", "dv_acc"]
    slices, offset = [], 0
    for name in names:
        shape = stat_shape(seq_mode, sizes) if name in STAT_SLICES else acc_shape(seq_mode, sizes, name, head_dim,
                                                                                 dkv_mode)
        count = 1
        for dim in shape:
            count *= dim
        slices.append(Slice(name, offset, count * 4, shape))
        offset = align_up(offset + count * 4)
    return tuple(slices)


def zero_region(slices: tuple[Slice, ...]) -> Slice | None:
    """The accumulation slices as one region (first offset to the end of the last), or None."""
    accs = [s for s in slices if s.name in ACC_SLICES]
    if not accs:
        return None
    end = accs[-1].offset + accs[-1].bytes
    return Slice(ZERO_REGION, accs[0].offset, end - accs[0].offset, ((end - accs[0].offset) // 4,))


def workspace_bytes(slices: tuple[Slice, ...]) -> int:
    """Total workspace bytes: the end of the last slice, rounded up to the alignment."""
    return align_up(slices[-1].offset + slices[-1].bytes) if slices else 0
