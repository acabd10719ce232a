"""Dispatch hook of attention_fwd: its candidates for an attention forward problem, in order.

Rejected before a spec exists: a dtype the family has no kernel for (DTYPE_UNSUPPORTED), a
head_dim outside HEAD_DIMS (HEAD_DIM_UNSUPPORTED), an arch with no f32-accumulating MMA atom for
the dtype (ARCH_UNSUPPORTED), a batch stride of 0 where it addresses rows (LAYOUT_UNSUPPORTED:
the batches would alias). Otherwise one candidate per MMA atom of the arch for the dtype,
largest atom first (m * n * k; catalog order on a tie), each with the tile of the atom's wave
size: wave64 (MFMA) 2 waves, block 64 x 64; wave32 (WMMA) 4 waves, block_m 64 and block_n 32 at
head_dim <= 64, 16 above (the register budget of the RDNA configs); an arch with mma.sync (sm_90,
132 SMs) 4 warps of 16 query rows (one m16 atom each, P chained in registers), block_m 64
(batch x heads x S_q / 64 workgroups fill the SMs from a few thousand rows per head on), block_n 32
at head_dim <= 64 (at 64 ptxas holds some of them to 96 or 128 registers and spills: head_dim 32
f16 causal_br varlen, head_dim 64 bf16 causal_tl varlen) and 64 at head_dim 128 (35 KiB of static
shared memory, 235 registers at most); lds_pad 8. The problem's
mask and seq_mode are the spec's. C++ twin: rocke_library/kernels/attention/attention_fwd/candidates.hpp.
"""

from __future__ import annotations

from typing import Any

from rocke.arch import ArchTarget, mma_ops

from ...candidate import Candidate, spec_kv
from .spec import HEAD_DIMS, INPUT_DTYPES, AttentionFwdSpec

FAMILY = AttentionFwdSpec.FAMILY
TENSORS = ("q", "k", "v", "o")
DOUBLE_BUFFER = 0  # one LDS stage of K and V^T: every arch's tiles fit it
LDS_PAD = 8
MMA_SYNC = "mma_sync"  # the arch feature of NVIDIA's warp-level MMA (sm_90)


def tile(target: ArchTarget, head_dim: int) -> tuple[int, int, int]:
    """(block_m, block_n, waves) for the arch's wave size (and mma.sync)."""
    if target.wave_size == 64:
        return 64, 64, 2
    if target.has_feature(MMA_SYNC):
        return 64, 32 if head_dim <= 64 else 64, 4
    return 64, 32 if head_dim <= 64 else 16, 4


def spans_batches(problem: Any, tensor: str) -> bool:
    """Whether a batched tensor's batch stride addresses anything: several batches with rows."""
    rows = problem.seqlen_k if tensor in ("k", "v") else problem.seqlen_q
    return problem.batch > 1 and rows > 0


def zero_batch_strides(problem: Any) -> list[str]:
    """The tensors whose batch stride is 0 where it addresses rows (the batches would alias)."""
    if problem.seq_mode != "batched":
        return []
    return [t for t in TENSORS if spans_batches(problem, t) and getattr(problem, f"{t}_stride_b") == 0]


def contract_sizes(problem: Any) -> tuple[tuple[str, int], ...]:
    """The launch contract's problem for this attention problem (sizes and every stride; a batch
    stride only where it addresses rows: else the contract's contiguous default stands, which for a
    tensor of no rows, seqlen_k = 0, is 0)."""
    if problem.seq_mode == "batched":
        sizes = {"batch": problem.batch, "seqlen_q": problem.seqlen_q, "seqlen_k": problem.seqlen_k}
        dims = ("b", "s", "h")
    else:
        sizes = {"batch": problem.batch, "max_seqlen_q": problem.seqlen_q, "total_q": problem.total_q,
                 "total_k": problem.total_k}
        dims = ("s", "h")
    sizes.update(heads_q=problem.heads_q, heads_kv=problem.heads_kv)
    for tensor in TENSORS:
        for dim in dims:
            if dim == "b" and not spans_batches(problem, tensor):
                continue
            key = f"{tensor}_stride_{dim}"
            sizes[key] = getattr(problem, key)
    return tuple(sorted(sizes.items()))


def candidates(problem: Any, target: ArchTarget) -> list[Candidate]:
    reasons, details = [], []
    if problem.dtype not in INPUT_DTYPES:
        reasons.append("DTYPE_UNSUPPORTED")
        details.append(f"dtype={problem.dtype}; {FAMILY} has {', '.join(INPUT_DTYPES)}")
    if problem.head_dim not in HEAD_DIMS:
        reasons.append("HEAD_DIM_UNSUPPORTED")
        details.append(f"head_dim={problem.head_dim}; {FAMILY} has {', '.join(str(d) for d in HEAD_DIMS)}")
    aliased = zero_batch_strides(problem)
    if aliased:
        reasons.append("LAYOUT_UNSUPPORTED")
        details.append(f"{', '.join(t + '_stride_b=0' for t in aliased)}; {FAMILY} reads and writes each batch "
                       f"apart, so batch strides must be at least 1")
    if reasons:
        return [Candidate(FAMILY, reasons=tuple(reasons), detail="; ".join(details))]
    atoms = sorted(mma_ops(target, problem.dtype, problem.dtype, "f32"), key=lambda op: -op.m * op.n * op.k)
    if not atoms:
        return [Candidate(FAMILY, reasons=("ARCH_UNSUPPORTED",),
                          detail=f"{target.name} has no MMA atom for {problem.dtype} accumulating in f32")]
    block_m, block_n, waves = tile(target, problem.head_dim)
    sizes = contract_sizes(problem)
    out = []
    for op in atoms:
        kv = spec_kv({"block_m": block_m, "block_n": block_n, "double_buffer": DOUBLE_BUFFER, "dtype": problem.dtype,
                      "head_dim": problem.head_dim, "lds_pad": LDS_PAD, "mask": problem.mask, "op_id": op.id,
                      "seq_mode": problem.seq_mode, "waves": waves})
        out.append(Candidate(FAMILY, kv, sizes))
    return out

