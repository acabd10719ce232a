"""float64 numpy reference of attention_fwd, written from the formula (not from the kernel):
per (batch, query head, query row i), with kv head h / (h_q / h_kv),

    s_ij = scale * q_i . k_j,  visible iff mask(i, j),
    LSE_i = log(sum over visible j of exp(s_ij)),  O_i = sum over visible j of exp(s_ij - LSE_i) v_j,

and a row with no visible key gets O = 0 and LSE = -inf. Sequences are given one by one as
logical [S, H, D] arrays (batched tensors are split by batch, varlen ones by cu_seqlens)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import ml_dtypes
import numpy as np

from .spec import AttentionFwdSpec

NUMPY_DTYPES = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16)}


def visible(mask: str, s_q: int, s_k: int) -> np.ndarray:
    """[s_q, s_k] bool: which keys each query row sees."""
    i = np.arange(s_q)[:, None]
    j = np.arange(s_k)[None, :]
    if mask == "none":
        return np.ones((s_q, s_k), bool)
    if mask == "causal_tl":
        return j <= i
    return j <= i + (s_k - s_q)


def attend(mask: str, q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """(O [S_q, H_q, D], LSE [H_q, S_q]) of one sequence in float64; q [S_q, H_q, D], k and v
    [S_k, H_kv, D]."""
    q, k, v = (np.asarray(x).astype(np.float64) for x in (q, k, v))
    s_q, h_q, d = q.shape
    s_k, h_kv, _ = k.shape
    group = h_q // h_kv
    out = np.zeros((s_q, h_q, d))
    lse = np.full((h_q, s_q), -np.inf)
    seen = visible(mask, s_q, s_k)
    for h in range(h_q):
        kh, vh = k[:, h // group, :], v[:, h // group, :]
        scores = np.where(seen, scale * (q[:, h, :] @ kh.T), -np.inf)  # [s_q, s_k]
        live = seen.any(axis=1)
        if not live.any():
            continue
        rows = scores[live]
        top = rows.max(axis=1, keepdims=True)
        weights = np.exp(rows - top)  # exp(-inf) = 0 for the masked keys
        total = weights.sum(axis=1, keepdims=True)
        lse[h, live] = (top + np.log(total))[:, 0]
        out[live, h, :] = (weights / total) @ vh
    return out, lse


def reference(spec: AttentionFwdSpec, inputs: Mapping[str, Any]) -> dict[str, list[np.ndarray]]:
    """{"o": [O per sequence], "lse": [LSE per sequence]} in float64 from inputs["q"], inputs["k"],
    inputs["v"] (lists of per-sequence [S, H, D] arrays) and inputs["scale"]."""
    outs, lses = [], []
    for q, k, v in zip(inputs["q"], inputs["k"], inputs["v"], strict=True):
        o, lse = attend(spec.mask, q, k, v, float(inputs["scale"]))
        outs.append(o)
        lses.append(lse)
    return {"o": outs, "lse": lses}
