"""The attention_bwd_prep spec: per query row D = rowsum(dO * O) and LSE2 = LSE * log2(e) (dead
rows: LSE2 = +inf, D = 0), and the zero-fill of the backward's accumulation workspace."""

from __future__ import annotations

from dataclasses import dataclass

from rocke.families.spec import Spec, check_threads, check_vec

INPUT_DTYPES = ("f16", "bf16")
HEAD_DIMS = (32, 64, 128)
SEQ_MODES = ("batched", "varlen")


@dataclass(frozen=True)
class AttentionBwdPrepSpec(Spec):
    """block: threads per workgroup; dtype: storage of O and dO; head_dim: D (specialised); vec:
    elements of O and dO per access. head_dim / vec lanes share one query row (a power of two, at
    most one wave: joined by shuffle-xor), so a workgroup covers block * vec / head_dim rows.
    seq_mode: batched (strided [B, S, H, D]) or varlen (packed [T, H, D]); the rows are the LSE's,
    so varlen needs no cu_seqlens."""

    FAMILY = "attention_bwd_prep"

    block: int
    dtype: str
    head_dim: int
    seq_mode: str
    vec: int

    def check(self) -> None:
        if self.dtype not in INPUT_DTYPES:
            self.fail("dtype", f"must be one of {', '.join(INPUT_DTYPES)}")
        if self.head_dim not in HEAD_DIMS:
            self.fail("head_dim", f"must be one of {', '.join(str(d) for d in HEAD_DIMS)}")
        if self.seq_mode not in SEQ_MODES:
            self.fail("seq_mode", f"must be one of {', '.join(SEQ_MODES)}")
        check_vec(self)
        check_threads(self, "block", self.block)

    @property
    def row_lanes(self) -> int:
        """Lanes sharing one query row."""
        return self.head_dim // self.vec

    @property
    def rows_per_block(self) -> int:
        return self.block // self.row_lanes
