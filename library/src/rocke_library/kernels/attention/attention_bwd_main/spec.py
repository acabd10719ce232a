"""The attention_bwd_main spec: flash-attention backward per key block. dK and dV of block_n keys
(and, with dq_mode=atomic, their share of dQ by f32 atomics), recomputing P from Q, K and the
forward's LSE in log2 units (LSE2, from attention_bwd_prep)."""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import MmaOp, mma_op
from rocke.families.spec import Spec, check_mma_atom

INPUT_DTYPES = ("f16", "bf16")
HEAD_DIMS = (32, 64, 128)
D_CHUNKS = (16, 32, 64, 128)
MASKS = ("none", "causal_tl", "causal_br")
SEQ_MODES = ("batched", "varlen")
DQ_MODES = ("atomic", "split")
DKV_MODES = ("direct", "atomic", "split")
MAX_WAVES = 32
MAX_BLOCK_M = 256
MAX_BLOCK_N = 256
MAX_LDS_PAD = 64


@dataclass(frozen=True)
class AttentionBwdMainSpec(Spec):
    """One workgroup owns block_n keys of one (batch, query head) and loops over the query blocks
    of block_m rows that can see them. waves split the keys (block_n / waves each); op_id is the
    MMA atom of every product (S = Q K^T, dP = dO V^T, dV^T = dO^T P, dK^T = Q^T dS and, with
    dq_mode=atomic, dQ^T = K^T dS^T). lds_pad pads every LDS line. dq_mode: atomic (dQ += dS K *
    scale by f32 global atomics into the dQ workspace) or split (dQ left to attention_bwd_dq).
    dkv_mode: direct (dK, dV written once in the input dtype; needs h_q == h_kv), atomic (f32
    atomics into the dK / dV workspaces, summing the query heads of a GQA / MQA group) or split
    (f32 plain stores into one workspace slice per query head, no atomics; attention_bwd_convert
    sums the group's slices in order, deterministically); atomic and split are converted by
    attention_bwd_convert. d_chunk: the head_dim columns of dK, dV (and atomic dQ) one workgroup
    owns; head_dim / d_chunk workgroups share a key block (S and dP still reduce over all of
    head_dim), so the dK / dV accumulators of a wave hold d_chunk columns, not head_dim."""

    FAMILY = "attention_bwd_main"

    block_m: int
    block_n: int
    d_chunk: int
    dkv_mode: str
    dq_mode: str
    dtype: str
    head_dim: int
    lds_pad: int
    mask: str
    op_id: str
    seq_mode: str
    waves: int

    def check(self) -> None:
        if self.dtype not in INPUT_DTYPES:
            self.fail("dtype", f"must be one of {', '.join(INPUT_DTYPES)}")
        if self.head_dim not in HEAD_DIMS:
            self.fail("head_dim", f"must be one of {', '.join(str(d) for d in HEAD_DIMS)}")
        if self.mask not in MASKS:
            self.fail("mask", f"must be one of {', '.join(MASKS)}")
        if self.seq_mode not in SEQ_MODES:
            self.fail("seq_mode", f"must be one of {', '.join(SEQ_MODES)}")
        if self.dq_mode not in DQ_MODES:
            self.fail("dq_mode", f"must be one of {', '.join(DQ_MODES)}")
        if self.dkv_mode not in DKV_MODES:
            self.fail("dkv_mode", f"must be one of {', '.join(DKV_MODES)}")
        op = check_mma_atom(self, "dtype", self.dtype)
        if not 1 <= self.waves <= MAX_WAVES:
            self.fail("waves", f"must be in 1..{MAX_WAVES}")
        if not 1 <= self.block_m <= MAX_BLOCK_M:
            self.fail("block_m", f"must be in 1..{MAX_BLOCK_M}")
        if not 1 <= self.block_n <= MAX_BLOCK_N:
            self.fail("block_n", f"must be in 1..{MAX_BLOCK_N}")
        if self.block_n % (self.waves * op.n) != 0 or (self.block_n // self.waves) % op.k != 0:
            self.fail("block_n", f"must be a multiple of waves * atom n = {self.waves} * {op.n} with block_n / "
                                 f"waves a multiple of atom k = {op.k} ({op.id})")
        if self.block_m % op.m != 0 or self.block_m % op.k != 0:
            self.fail("block_m", f"must be a multiple of atom m = {op.m} and atom k = {op.k} ({op.id})")
        if self.head_dim % op.m != 0 or self.head_dim % op.k != 0:
            self.fail("head_dim", f"must be a multiple of atom m = {op.m} and atom k = {op.k} ({op.id})")
        if self.d_chunk not in D_CHUNKS:
            self.fail("d_chunk", f"must be one of {', '.join(str(d) for d in D_CHUNKS)}")
        if self.head_dim % self.d_chunk != 0:
            self.fail("d_chunk", f"must divide head_dim = {self.head_dim}")
        if self.d_chunk % op.m != 0:
            self.fail("d_chunk", f"must be a multiple of atom m = {op.m} ({op.id})")
        if not 0 <= self.lds_pad <= MAX_LDS_PAD:
            self.fail("lds_pad", f"must be in 0..{MAX_LDS_PAD}")

    def atom(self) -> MmaOp:
        """The MMA catalog op of every product."""
        return mma_op(self.op_id)

    @property
    def threads(self) -> int:
        """Threads per workgroup: waves of the atom's wave size."""
        return self.waves * self.atom().wave_size

    @property
    def chunks(self) -> int:
        """Workgroups per key block: head_dim / d_chunk."""
        return self.head_dim // self.d_chunk

    @property
    def wave_keys(self) -> int:
        """Keys per wave."""
        return self.block_n // self.waves
