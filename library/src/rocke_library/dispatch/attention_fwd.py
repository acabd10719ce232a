"""The attention forward problem: O = softmax(scale * Q K^T + mask) V and LSE per query row.

Fields (kv keys): batch, seqlen_q, seqlen_k (batched: every sequence's length; varlen: the longest),
total_q, total_k (tokens over the batch: batched default batch * seqlen, which they must equal;
varlen: required), heads_q, heads_kv (GQA / MQA when heads_q > heads_kv; heads_q a multiple),
head_dim, dtype (f16, bf16, f32, f64), mask (none, causal_tl, causal_br; default none), seq_mode
(batched, varlen; default batched), align (bytes every buffer's base is a multiple of; default
16) and the element strides {q,k,v,o}_stride_{b,s,h} (default contiguous [B, S, H, D]; varlen:
[T, H, D] with stride_b 0). head_dim elements of a row are contiguous.
C++ twin: rocke_library/dispatch/attention_fwd.hpp.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .problem import MAX_SIZE, PROBLEM_DTYPES, Problem

MASKS = ("none", "causal_tl", "causal_br")
SEQ_MODES = ("batched", "varlen")
TENSORS = ("q", "k", "v", "o")
STRIDE_DIMS = ("b", "s", "h")


def clamped_product(*factors: Any) -> int:
    """The product of sizes for a default: 0 when a factor is not a size in 0..MAX_SIZE (its own
    rule reports it first), MAX_SIZE + 1 when the product exceeds MAX_SIZE."""
    product = 1
    for factor in factors:
        if isinstance(factor, bool) or not isinstance(factor, int) or not 0 <= factor <= MAX_SIZE:
            return 0
        product = min(product * factor, MAX_SIZE + 1)
    return product


@dataclass(frozen=True)
class AttentionProblem(Problem):
    """The fields and rules attention forward and backward share."""

    align: int
    batch: int
    dtype: str
    head_dim: int
    heads_kv: int
    heads_q: int
    k_stride_b: int
    k_stride_h: int
    k_stride_s: int
    mask: str
    o_stride_b: int
    o_stride_h: int
    o_stride_s: int
    q_stride_b: int
    q_stride_h: int
    q_stride_s: int
    seq_mode: str
    seqlen_k: int
    seqlen_q: int
    total_k: int
    total_q: int
    v_stride_b: int
    v_stride_h: int
    v_stride_s: int

    @classmethod
    def defaults(cls, given: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"align": 16, "mask": "none", "seq_mode": "batched"}
        batched = given.get("seq_mode", "batched") == "batched"
        if batched:
            for total, seqlen in (("total_q", "seqlen_q"), ("total_k", "seqlen_k")):
                if "batch" in given and seqlen in given:
                    out[total] = clamped_product(given["batch"], given[seqlen])
        if "head_dim" not in given:
            return out
        d = given["head_dim"]
        for tensor in TENSORS:
            kv = tensor in ("k", "v")
            heads = given.get("heads_kv" if kv else "heads_q")
            seqlen = given.get("seqlen_k" if kv else "seqlen_q")
            out[f"{tensor}_stride_h"] = clamped_product(d)
            if heads is not None:
                out[f"{tensor}_stride_s"] = clamped_product(heads, d)
                if not batched:
                    out[f"{tensor}_stride_b"] = 0
                elif seqlen is not None:
                    out[f"{tensor}_stride_b"] = clamped_product(seqlen, heads, d)
        return out

    def check(self) -> None:
        self.check_choice("dtype", PROBLEM_DTYPES)
        self.check_choice("mask", MASKS)
        self.check_choice("seq_mode", SEQ_MODES)
        for field in ("batch", "seqlen_q", "seqlen_k", "total_q", "total_k"):
            self.check_range(field, 0)
        for field in ("heads_q", "heads_kv", "head_dim"):
            self.check_range(field, 1)
        if self.heads_q % self.heads_kv != 0:
            self.fail("heads_q", f"must be a multiple of heads_kv={self.heads_kv} (an integer GQA ratio)")
        if self.seq_mode == "batched":
            for total, seqlen in (("total_q", self.seqlen_q), ("total_k", self.seqlen_k)):
                if getattr(self, total) != self.batch * seqlen:
                    self.fail(total, f"must be batch * seqlen = {self.batch * seqlen} in batched mode")
        else:
            for seqlen, total in (("seqlen_q", self.total_q), ("seqlen_k", self.total_k)):
                if getattr(self, seqlen) > total:
                    self.fail(seqlen, f"must be at most total={total} (the longest sequence of the batch)")
        for tensor in TENSORS:
            for dim in STRIDE_DIMS:
                self.check_range(f"{tensor}_stride_{dim}", 0 if dim == "b" else 1)
            if self.seq_mode == "varlen" and getattr(self, f"{tensor}_stride_b") != 0:
                self.fail(f"{tensor}_stride_b", "must be 0 in varlen mode (packed tokens)")
            if getattr(self, f"{tensor}_stride_s") < self.head_dim and getattr(self, f"{tensor}_stride_h") < \
                    self.head_dim:
                self.fail(f"{tensor}_stride_s", f"and {tensor}_stride_h are both below head_dim={self.head_dim}: "
                                                f"the rows overlap")
        self.check_align(self.dtype)

    def dead(self) -> bool:
        """Nothing to write: no query row (O and LSE are empty)."""
        rows = self.batch * self.seqlen_q if self.seq_mode == "batched" else self.total_q
        return rows == 0 or self.batch == 0


@dataclass(frozen=True)
class AttentionFwdProblem(AttentionProblem):
    KIND = "attention_fwd"
    FAMILY = "attention_fwd problem"
