"""The attention_bwd_dq spec: flash-attention backward per query block, dQ = scale * dS K written
directly (no atomics), recomputing P and dS from Q, K, V, dO and the forward's statistics."""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import MmaOp, mma_op
from rocke.families.spec import Spec, check_mma_atom

INPUT_DTYPES = ("f16", "bf16")
HEAD_DIMS = (32, 64, 128)
MASKS = ("none", "causal_tl", "causal_br")
SEQ_MODES = ("batched", "varlen")
MAX_WAVES = 32
MAX_BLOCK_M = 512
MAX_BLOCK_N = 256
MAX_LDS_PAD = 64


@dataclass(frozen=True)
class AttentionBwdDqSpec(Spec):
    """One workgroup owns block_m query rows of one (batch, query head) and loops over the key
    blocks of block_n they can see. waves split the rows (block_m / waves each); op_id is the MMA
    atom of every product (S^T = K Q^T, dP^T = V dO^T, dQ^T = K^T dS^T). lds_pad pads every LDS
    line. qdo_lds stages the block's Q and dO rows once in LDS and reads their fragments from there
    at every key block, instead of holding them in registers through the key loop (what head_dim
    128 needs where the registers run out). dQ is written once, in the input dtype."""

    FAMILY = "attention_bwd_dq"

    block_m: int
    block_n: int
    dtype: str
    head_dim: int
    lds_pad: int
    mask: str
    op_id: str
    qdo_lds: bool
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
        op = check_mma_atom(self, "dtype", self.dtype)
        if not 1 <= self.waves <= MAX_WAVES:
            self.fail("waves", f"must be in 1..{MAX_WAVES}")
        if not 1 <= self.block_m <= MAX_BLOCK_M:
            self.fail("block_m", f"must be in 1..{MAX_BLOCK_M}")
        if not 1 <= self.block_n <= MAX_BLOCK_N:
            self.fail("block_n", f"must be in 1..{MAX_BLOCK_N}")
        if self.block_m % (self.waves * op.n) != 0:
            self.fail("block_m", f"must be a multiple of waves * atom n = {self.waves} * {op.n} ({op.id})")
        if self.block_n % op.m != 0 or self.block_n % op.k != 0:
            self.fail("block_n", f"must be a multiple of atom m = {op.m} and atom k = {op.k} ({op.id})")
        if self.head_dim % op.m != 0 or self.head_dim % op.k != 0:
            self.fail("head_dim", f"must be a multiple of atom m = {op.m} and atom k = {op.k} ({op.id})")
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
    def wave_rows(self) -> int:
        """Query rows per wave."""
        return self.block_m // self.waves
