"""The attention_bwd_dq family: flash-attention backward per query block, dQ = scale * dS K written
once in the input dtype (the split dQ of attention_bwd_main's dq_mode=split); masks none /
causal_tl / causal_br; batched and varlen; MFMA and WMMA."""

from .builder import FAULTS, build
from .contract import BATCHED_KEYS, VARLEN_KEYS, launch, problem_keys
from .plan import DqPlan, plan_dq
from .reference import reference
from .spec import HEAD_DIMS, INPUT_DTYPES, MASKS, SEQ_MODES, AttentionBwdDqSpec

__all__ = [
    "BATCHED_KEYS",
    "FAULTS",
    "HEAD_DIMS",
    "INPUT_DTYPES",
    "MASKS",
    "SEQ_MODES",
    "VARLEN_KEYS",
    "AttentionBwdDqSpec",
    "DqPlan",
    "build",
    "launch",
    "plan_dq",
    "problem_keys",
    "reference",
]
