"""Dispatch hook of the attention backward (served through attention_bwd_main, whose modes decide the
launches): candidate launch sets prep -> main -> [dq] -> [convert] for an attention_bwd problem, in order.

Rejected before a spec exists: a dtype or head_dim not every backward family has
(DTYPE_UNSUPPORTED, HEAD_DIM_UNSUPPORTED, the detail naming the allowed values), an arch with no
f32-accumulating MMA atom for the dtype (ARCH_UNSUPPORTED), a zero batch stride of a tensor with
several batches of rows (LAYOUT_UNSUPPORTED: the gradients, laid out like them, would alias).
Otherwise one set per (dq_mode, atom): dq_mode split first (attention_bwd_dq writes dQ once,
without atomics: the gradients are deterministic, bit for bit run to run), then atomic (main adds
dQ by f32 atomics and convert rounds it: no dq launch, and no recomputation of P and dS); within
each, the atoms largest first (m * n * k; catalog order on a tie). dkv_mode: atomic iff heads_q !=
heads_kv (the query heads of a group add into one dK, dV), else direct. Tiles by the atom's wave
size (those the backward configs ship): main wave64 block_m 32, block_n 64, 2 waves; wave32 16 x
32, 2 waves; dq block_m 64 (wave64) or 32 (wave32), block_n 32, block_m / atom n waves; lds_pad 8.
main's d_chunk: head_dim on wave64; on wave32 the largest with head_dim * d_chunk at most
WAVE32_DKV_BUDGET (head_dim 128 in chunks of 32: one chunk of 128 spills at LLVM 22 and LLVM 20,
chunks of 64 spill on gfx1201 at LLVM 22; measured, main's configs refuse or ship them). An arch
with mma.sync (sm_90, 132 SMs; its 16x8 atom holds two keys per lane) gets the sm_90 configs'
shapes: main block_m 32, block_n 64 over 4 warps at head_dim <= 64, 32 over 2 warps at 128 (the
static shared memory within 48 KiB), d_chunk at most 64 (one chunk of 128 spills at LLVM 22);
dq block_m 64, block_n 32, 4 warps of two row atoms. dq's
qdo_lds: 1 (Q and dO staged in LDS) when their A fragments over head_dim would take more than
QDO_MAX_VGPRS of a lane's registers (gfx11's replicated WMMA operands at head_dim 128), else 0.
prep and convert: 256 threads, vec the widest access dividing head_dim and the strides of the
tensors they read or write at the problem's alignment (convert at most 4: one 16-byte f32 workspace
load). The spec rules, the arch rules and the refusal tables check every part (dispatch); the plan
is plan_attention_bwd's.

Gradients are laid out like their tensors: dO like O, dQ like Q, dK like K, dV like V.
C++ twin: rocke_library/kernels/attention/attention_bwd_main/candidates.hpp.
"""

from __future__ import annotations

from math import gcd
from typing import Any

from rocke.arch import ArchTarget, MmaOp, mma_ops
from rocke.helpers import elem_bytes

from ...candidate import Candidate, spec_kv, vector_width
from ..attention_bwd_convert import spec as convert_spec
from ..attention_bwd_dq import spec as dq_spec
from ..attention_bwd_prep import spec as prep_spec
from . import spec as main_spec

FAMILY = main_spec.AttentionBwdMainSpec.FAMILY
PREP = prep_spec.AttentionBwdPrepSpec.FAMILY
DQ = dq_spec.AttentionBwdDqSpec.FAMILY
CONVERT = convert_spec.AttentionBwdConvertSpec.FAMILY
DQ_MODE_ORDER = ("split", "atomic")
LDS_PAD = 8
QDO_MAX_VGPRS = 64  # dq keeps Q and dO in registers up to this many VGPRs a lane, else in LDS
ELEMENTWISE_BLOCK = 256  # prep and convert threads per workgroup
WAVE32_DKV_BUDGET = 4096  # wave32 main: head_dim * d_chunk at most this (see the module docstring)
MMA_SYNC = "mma_sync"  # the arch feature of NVIDIA's warp-level MMA (sm_90)
MMA_SYNC_D_CHUNK = 64  # mma.sync main: d_chunk at most this (one chunk of 128 spills at LLVM 22)
PREP_MAX_VEC = 8  # 16 bytes of f16 / bf16: the widest access
CONVERT_MAX_VEC = 4  # one 16-byte f32 workspace access
GRADIENT_OF = {"do": "o", "dq": "q", "dk": "k", "dv": "v"}  # a gradient's strides are its tensor's
TENSORS = ("q", "k", "v", "o", "do", "dq", "dk", "dv")
# What every backward family has: the set's dtypes and head dims.
INPUT_DTYPES = tuple(d for d in prep_spec.INPUT_DTYPES if all(
    d in spec.INPUT_DTYPES for spec in (main_spec, dq_spec, convert_spec)))
HEAD_DIMS = tuple(d for d in prep_spec.HEAD_DIMS if all(
    d in spec.HEAD_DIMS for spec in (main_spec, dq_spec, convert_spec)))


def main_tile(target: ArchTarget, head_dim: int) -> tuple[int, int, int]:
    """(block_m, block_n, waves) of attention_bwd_main for the arch's wave size (and mma.sync)."""
    if target.wave_size == 64:
        return 32, 64, 2
    if target.has_feature(MMA_SYNC):
        return (32, 64, 4) if head_dim <= 64 else (32, 32, 2)
    return 16, 32, 2


def main_d_chunk(target: ArchTarget, head_dim: int) -> int:
    """attention_bwd_main's d_chunk: head_dim on wave64, at most MMA_SYNC_D_CHUNK with mma.sync,
    within WAVE32_DKV_BUDGET on the other wave32 archs."""
    if target.wave_size == 64:
        return head_dim
    if target.has_feature(MMA_SYNC):
        return min(head_dim, MMA_SYNC_D_CHUNK)
    return min(head_dim, WAVE32_DKV_BUDGET // head_dim)


def dq_qdo_lds(op: MmaOp, head_dim: int, dtype: str) -> int:
    """attention_bwd_dq's qdo_lds: 1 when Q's and dO's A fragments over head_dim exceed QDO_MAX_VGPRS."""
    vgprs = 2 * (head_dim // op.k) * op.a.length * elem_bytes(dtype) // 4
    return 1 if vgprs > QDO_MAX_VGPRS else 0


def dq_tile(target: ArchTarget, atom_n: int) -> tuple[int, int, int]:
    """(block_m, block_n, waves) of attention_bwd_dq: one atom of rows per wave (with mma.sync 4
    warps of two)."""
    if target.has_feature(MMA_SYNC):
        return 64, 32, 4
    block_m = 64 if target.wave_size == 64 else 32
    return block_m, 32, max(1, block_m // atom_n)


def stride(problem: Any, tensor: str, dim: str) -> int:
    return getattr(problem, f"{GRADIENT_OF.get(tensor, tensor)}_stride_{dim}")


def plan_sizes(problem: Any) -> tuple[tuple[str, int], ...]:
    """The problem plan_attention_bwd takes (sizes and every tensor's strides), sorted by name."""
    sizes = {"batch": problem.batch, "heads_q": problem.heads_q, "heads_kv": problem.heads_kv}
    if problem.seq_mode == "batched":
        sizes.update(seqlen_q=problem.seqlen_q, seqlen_k=problem.seqlen_k)
        dims = ("b", "s", "h")
    else:
        sizes.update(max_seqlen_q=problem.seqlen_q, max_seqlen_k=problem.seqlen_k, total_q=problem.total_q,
                     total_k=problem.total_k)
        dims = ("s", "h")
    for tensor in TENSORS:
        for dim in dims:
            if dim == "b" and not spans_batches(problem, tensor):
                continue  # never multiplied by a batch index: the contiguous default stands
            sizes[f"{tensor}_stride_{dim}"] = stride(problem, tensor, dim)
    return tuple(sorted(sizes.items()))


def spans_batches(problem: Any, tensor: str) -> bool:
    """Whether a batched tensor's batch stride addresses anything: several batches with rows."""
    rows = problem.seqlen_k if tensor in ("k", "v", "dk", "dv") else problem.seqlen_q
    return problem.batch > 1 and rows > 0


def zero_batch_strides(problem: Any) -> list[str]:
    """The tensors (of q, k, v, o) whose batch stride is 0 where it addresses rows (batches alias)."""
    if problem.seq_mode != "batched":
        return []
    return [t for t in ("q", "k", "v", "o") if spans_batches(problem, t) and stride(problem, t, "b") == 0]


def access_width(problem: Any, tensors: tuple[str, ...], most: int) -> int:
    """The widest access (at most `most` elements) dividing head_dim and the tensors' strides at
    the problem's alignment."""
    dims = ("b", "s", "h") if problem.seq_mode == "batched" else ("s", "h")
    run = problem.head_dim
    for tensor in tensors:
        for dim in dims:
            run = gcd(run, stride(problem, tensor, dim))
    return min(most, vector_width(elem_bytes(problem.dtype), run, problem.align))


def dkv_mode(problem: Any) -> str:
    """atomic iff h_q != h_kv (GQA / MQA: a group's query heads add into one dK, dV), else direct."""
    return "atomic" if problem.heads_q != problem.heads_kv else "direct"


def candidates(problem: Any, target: ArchTarget) -> list[Candidate]:
    reasons, details = [], []
    if problem.dtype not in INPUT_DTYPES:
        reasons.append("DTYPE_UNSUPPORTED")
        details.append(f"dtype={problem.dtype}; the attention backward has {', '.join(INPUT_DTYPES)}")
    if problem.head_dim not in HEAD_DIMS:
        reasons.append("HEAD_DIM_UNSUPPORTED")
        dims = ", ".join(str(d) for d in HEAD_DIMS)
        details.append(f"head_dim={problem.head_dim}; the attention backward has {dims}")
    aliased = zero_batch_strides(problem)
    if aliased:
        reasons.append("LAYOUT_UNSUPPORTED")
        details.append(f"{', '.join(t + '_stride_b=0' for t in aliased)}; the attention backward writes each batch's "
                       f"gradients apart (like their tensors), so batch strides must be at least 1")
    if reasons:
        return [Candidate(FAMILY, reasons=tuple(reasons), detail="; ".join(details))]
    atoms = sorted(mma_ops(target, problem.dtype, problem.dtype, "f32"), key=lambda op: -op.m * op.n * op.k)
    if not atoms:
        return [Candidate(FAMILY, reasons=("ARCH_UNSUPPORTED",),
                          detail=f"{target.name} has no MMA atom for {problem.dtype} accumulating in f32")]
    common = {"dtype": problem.dtype, "head_dim": problem.head_dim, "seq_mode": problem.seq_mode}
    kv_mode = dkv_mode(problem)
    prep = spec_kv({**common, "block": ELEMENTWISE_BLOCK,
                    "vec": access_width(problem, ("o", "do"), PREP_MAX_VEC)})
    sizes = plan_sizes(problem)
    block_m, block_n, waves = main_tile(target, problem.head_dim)
    d_chunk = main_d_chunk(target, problem.head_dim)
    out = []
    for dq_mode in DQ_MODE_ORDER:
        for op in atoms:
            parts = [(PREP, prep)]
            parts.append((FAMILY, spec_kv({**common, "block_m": block_m, "block_n": block_n, "d_chunk": d_chunk,
                                           "dkv_mode": kv_mode, "dq_mode": dq_mode, "lds_pad": LDS_PAD,
                                           "mask": problem.mask, "op_id": op.id, "waves": waves})))
            if dq_mode == "split":
                dq_m, dq_n, dq_waves = dq_tile(target, op.n)
                parts.append((DQ, spec_kv({**common, "block_m": dq_m, "block_n": dq_n, "lds_pad": LDS_PAD,
                                           "mask": problem.mask, "op_id": op.id,
                                           "qdo_lds": dq_qdo_lds(op, problem.head_dim, problem.dtype),
                                           "waves": dq_waves})))
            if dq_mode == "atomic" or kv_mode != "direct":
                written = (("dq",) if dq_mode == "atomic" else ()) + (("dk", "dv") if kv_mode != "direct" else ())
                parts.append((CONVERT, spec_kv({**common, "block": ELEMENTWISE_BLOCK, "dkv_mode": kv_mode,
                                                "dq_mode": dq_mode,
                                                "vec": access_width(problem, written, CONVERT_MAX_VEC)})))
            out.append(Candidate(FAMILY, sizes=sizes, parts=tuple(parts)))
    return out

