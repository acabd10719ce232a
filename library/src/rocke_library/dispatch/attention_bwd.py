"""The attention backward problem: dQ, dK, dV from Q, K, V, O, dO and the forward's LSE.
Fields and rules: those of attention_fwd. No family serves it on this build (the four
attention_bwd_* families land with their hooks and one plan of four launches): dispatch refuses
it with NO_INSTANCE. `dkv_mode` is the choice their hook makes: dK / dV accumulate by f32 atomics
exactly when several query heads share a key head (h_q != h_kv).
C++ twin: rocke_library/dispatch/attention_bwd.hpp.
"""

from __future__ import annotations

from dataclasses import dataclass

from .attention_fwd import AttentionProblem


@dataclass(frozen=True)
class AttentionBwdProblem(AttentionProblem):
    KIND = "attention_bwd"
    FAMILY = "attention_bwd problem"


def dkv_mode(problem: AttentionProblem) -> str:
    """"atomic" iff h_q != h_kv (GQA / MQA: query heads of a group add into one dK, dV), else "store"."""
    return "atomic" if problem.heads_q != problem.heads_kv else "store"
