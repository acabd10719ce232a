"""The attention_fwd family: flash-attention forward (online softmax in the exp2 domain, f32
statistics), O and the natural-log LSE per row; masks none / causal_tl / causal_br; GQA / MQA;
batched (strided) and varlen (packed tokens + cu_seqlens); MFMA and WMMA."""

from .builder import FAULTS, build
from .contract import BATCHED_KEYS, VARLEN_KEYS, launch, problem_keys
from .plan import AttentionPlan, plan_attention
from .reference import NUMPY_DTYPES, attend, reference
from .spec import HEAD_DIMS, INPUT_DTYPES, MASKS, SEQ_MODES, AttentionFwdSpec

__all__ = [
    "BATCHED_KEYS",
    "FAULTS",
    "HEAD_DIMS",
    "INPUT_DTYPES",
    "MASKS",
    "NUMPY_DTYPES",
    "SEQ_MODES",
    "VARLEN_KEYS",
    "AttentionFwdSpec",
    "AttentionPlan",
    "attend",
    "build",
    "launch",
    "plan_attention",
    "problem_keys",
    "reference",
]
