"""float64 numpy reference of attention_bwd_prep, from the definition: for every query row
(batch b, head h, row s) with LSE[b, h, s] > -inf

    D[b, h, s] = sum over d of dO[b, s, h, d] * O[b, s, h, d],   LSE2[b, h, s] = LSE[b, h, s] * log2(e)

and a dead row (LSE = -inf or NaN) gets D = 0, LSE2 = +inf. Batched tensors are [B, S_q, H_q, D]
with lse [B, H_q, S_q]; varlen ones [total_q, H_q, D] with lse [H_q, total_q]."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from .spec import AttentionBwdPrepSpec


def reference(spec: AttentionBwdPrepSpec, inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """{"delta", "lse2"} (shaped like inputs["lse"], float64) from inputs["o"], inputs["do"]
    (logical [B, S, H, D] or [T, H, D] arrays) and inputs["lse"]."""
    o = np.asarray(inputs["o"]).astype(np.float64)
    do = np.asarray(inputs["do"]).astype(np.float64)
    lse = np.asarray(inputs["lse"]).astype(np.float64)
    if spec.seq_mode == "batched":
        dots = np.einsum("bshd,bshd->bhs", do, o)
    else:
        dots = np.einsum("thd,thd->ht", do, o)
    with np.errstate(invalid="ignore"):
        live = lse > -np.inf  # False for -inf and NaN
    delta = np.where(live, dots, 0.0)
    lse2 = np.where(live, lse * (1.0 / math.log(2.0)), np.inf)
    return {"delta": delta, "lse2": lse2}


def delta_bound(spec: AttentionBwdPrepSpec, inputs: Mapping[str, Any]) -> np.ndarray:
    """Per row, the error bound of an f32 sum of head_dim exact products: head_dim * 2^-24 *
    sum |dO * O| (products of two f16 or bf16 values are exact in f32)."""
    o = np.abs(np.asarray(inputs["o"]).astype(np.float64))
    do = np.abs(np.asarray(inputs["do"]).astype(np.float64))
    pattern = "bshd,bshd->bhs" if spec.seq_mode == "batched" else "thd,thd->ht"
    return spec.head_dim * 2.0**-24 * np.einsum(pattern, do, o)
