"""The attention_bwd_prep family: per query row D = rowsum(dO * O) in f32 and LSE2 = LSE * log2(e)
(dead rows: LSE2 = +inf, D = 0), and the zero-fill of the backward's accumulation workspace."""

from .builder import FAULTS, build
from .contract import launch, problem_keys, row_count
from .reference import reference
from .spec import HEAD_DIMS, INPUT_DTYPES, SEQ_MODES, AttentionBwdPrepSpec

__all__ = ["FAULTS", "HEAD_DIMS", "INPUT_DTYPES", "SEQ_MODES", "AttentionBwdPrepSpec", "build", "launch",
           "problem_keys", "reference", "row_count"]
