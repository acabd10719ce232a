"""The attention_bwd_convert family: the backward's f32 workspaces to dQ, dK, dV in the input dtype
through arbitrary output strides, summing a GQA group's per-query-head slices (dkv_mode=split)."""

from .builder import FAULTS, build
from .contract import launch, problem_keys
from .reference import reference
from .spec import DKV_MODES, DQ_MODES, HEAD_DIMS, INPUT_DTYPES, SEQ_MODES, AttentionBwdConvertSpec

__all__ = ["DKV_MODES", "DQ_MODES", "FAULTS", "HEAD_DIMS", "INPUT_DTYPES", "SEQ_MODES", "AttentionBwdConvertSpec",
           "build", "launch", "problem_keys", "reference"]
