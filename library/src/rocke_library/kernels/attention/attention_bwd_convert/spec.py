"""The attention_bwd_convert spec: the backward's f32 workspaces (dq_acc, dk_acc, dv_acc) to dQ,
dK, dV in the input dtype through arbitrary output strides, summing a GQA group's per-query-head
slices when dkv_mode=split."""

from __future__ import annotations

from dataclasses import dataclass

from rocke.families.spec import MAX_ACCESS_BYTES, Spec, check_threads, check_vec

from ..backward_plan import DKV_MODES, DQ_MODES

INPUT_DTYPES = ("f16", "bf16")
HEAD_DIMS = (32, 64, 128)
SEQ_MODES = ("batched", "varlen")


@dataclass(frozen=True)
class AttentionBwdConvertSpec(Spec):
    """block: threads per workgroup; dtype: storage of dQ, dK, dV; head_dim: D; vec: elements per
    access (at most 4: one 16-byte f32 workspace load). dq_mode=atomic converts dq_acc to dq
    (split: the dq family wrote dq, nothing to do); dkv_mode=atomic converts dk_acc, dv_acc
    ([.., H_kv, D]) to dk, dv, dkv_mode=split sums the `group` query-head slices ([.., H_q, D])
    of each kv head first, dkv_mode=direct leaves dk, dv (main wrote them). seq_mode: batched
    (strided [B, S, H, D] outputs) or varlen ([T, H, D])."""

    FAMILY = "attention_bwd_convert"

    block: int
    dkv_mode: str
    dq_mode: str
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
        if self.dq_mode not in DQ_MODES:
            self.fail("dq_mode", f"must be one of {', '.join(DQ_MODES)}")
        if self.dkv_mode not in DKV_MODES:
            self.fail("dkv_mode", f"must be one of {', '.join(DKV_MODES)}")
        if self.dq_mode == "split" and self.dkv_mode == "direct":
            self.fail("dkv_mode", "with dq_mode=split there is nothing to convert (use atomic or split)")
        check_vec(self)
        most = MAX_ACCESS_BYTES // 4
        if self.vec > most:
            self.fail("vec", f"one f32 workspace access holds at most {most} elements ({MAX_ACCESS_BYTES} bytes)")
        check_threads(self, "block", self.block)

    @property
    def tensors(self) -> tuple[str, ...]:
        """The outputs this kernel writes, in argument order."""
        out = ("dq",) if self.dq_mode == "atomic" else ()
        return out + (("dk", "dv") if self.dkv_mode != "direct" else ())
