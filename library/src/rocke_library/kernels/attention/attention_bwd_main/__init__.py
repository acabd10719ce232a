"""The attention_bwd_main family: flash-attention backward per key block. dK and dV of block_n keys
(direct in the input dtype, or f32 atomics summing a GQA group), dQ by f32 atomics or left to
attention_bwd_dq; masks none / causal_tl / causal_br; batched and varlen; MFMA and WMMA."""

from .builder import FAULTS, build
from .contract import BATCHED_KEYS, VARLEN_KEYS, launch, problem_keys
from .plan import MainPlan, plan_main
from .reference import NUMPY_DTYPES, backward, reference
from .spec import DKV_MODES, DQ_MODES, HEAD_DIMS, INPUT_DTYPES, MASKS, SEQ_MODES, AttentionBwdMainSpec

__all__ = [
    "BATCHED_KEYS",
    "DKV_MODES",
    "DQ_MODES",
    "FAULTS",
    "HEAD_DIMS",
    "INPUT_DTYPES",
    "MASKS",
    "NUMPY_DTYPES",
    "SEQ_MODES",
    "VARLEN_KEYS",
    "AttentionBwdMainSpec",
    "MainPlan",
    "backward",
    "build",
    "launch",
    "plan_main",
    "problem_keys",
    "reference",
]
