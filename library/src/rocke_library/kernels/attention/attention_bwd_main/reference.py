"""float64 numpy reference of the attention backward, written from the formulas (not from the
kernels, not from the forward reference): per sequence, query head h and its kv head
g = h / (h_q / h_kv), with s_ij = scale * q_i . k_j and key j visible from row i iff mask(i, j):

    P_ij  = exp(s_ij) / sum over visible j' of exp(s_ij')   (0 where masked; a row with no
            visible key has P = 0)
    LSE_i = log(sum over visible j of exp(s_ij))            (-inf for such a row)
    O     = P V,  D_i = sum_d dO_id O_id
    dV_g  = sum over h of P^T dO,  dP = dO V^T,  dS = P * (dP - D)
    dQ_h  = scale * dS K,          dK_g = sum over h of scale * dS^T Q

Sequences are given one by one as logical [S, H, D] arrays."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import ml_dtypes
import numpy as np

NUMPY_DTYPES = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16)}


def seen(mask: str, s_q: int, s_k: int) -> np.ndarray:
    """[s_q, s_k] bool: key j is visible from row i (none; causal_tl j <= i; causal_br
    j <= i + s_k - s_q)."""
    i = np.arange(s_q)[:, None]
    j = np.arange(s_k)[None, :]
    if mask == "causal_tl":
        return j <= i
    if mask == "causal_br":
        return j <= i + (s_k - s_q)
    return np.ones((s_q, s_k), bool)


def backward(mask: str, q: np.ndarray, k: np.ndarray, v: np.ndarray, do: np.ndarray, scale: float
             ) -> dict[str, np.ndarray]:
    """{"dq" [S_q, H_q, D], "dk", "dv" [S_k, H_kv, D], "lse", "delta" [H_q, S_q]} of one sequence
    in float64."""
    q, k, v, do = (np.asarray(x).astype(np.float64) for x in (q, k, v, do))
    s_q, h_q, d = q.shape
    s_k, h_kv, _ = k.shape
    group = h_q // h_kv
    vis = seen(mask, s_q, s_k)
    out = {"dq": np.zeros((s_q, h_q, d)), "dk": np.zeros((s_k, h_kv, d)), "dv": np.zeros((s_k, h_kv, d)),
           "lse": np.full((h_q, s_q), -np.inf), "delta": np.zeros((h_q, s_q))}
    for h in range(h_q):
        g = h // group
        qh, kg, vg, doh = q[:, h, :], k[:, g, :], v[:, g, :], do[:, h, :]
        p = np.zeros((s_q, s_k))
        for i in range(s_q):
            cols = np.flatnonzero(vis[i])
            if cols.size == 0:
                continue
            logits = scale * (kg[cols] @ qh[i])
            top = logits.max()
            e = np.exp(logits - top)
            p[i, cols] = e / e.sum()
            out["lse"][h, i] = top + np.log(e.sum())
        o = p @ vg
        delta = (doh * o).sum(axis=1)
        dp = doh @ vg.T
        ds = p * (dp - delta[:, None])
        out["delta"][h] = delta
        out["dq"][:, h, :] = scale * (ds @ kg)
        out["dk"][:, g, :] += scale * (ds.T @ qh)
        out["dv"][:, g, :] += p.T @ doh
    return out


def reference(spec: Any, inputs: Mapping[str, Any]) -> dict[str, list[np.ndarray]]:
    """{"dq", "dk", "dv", "lse", "delta": one array per sequence} in float64 from inputs["q"],
    inputs["k"], inputs["v"], inputs["do"] (lists of per-sequence [S, H, D] arrays) and
    inputs["scale"]."""
    out: dict[str, list[np.ndarray]] = {"dq": [], "dk": [], "dv": [], "lse": [], "delta": []}
    for q, k, v, do in zip(inputs["q"], inputs["k"], inputs["v"], inputs["do"], strict=True):
        for name, value in backward(spec.mask, q, k, v, do, float(inputs["scale"])).items():
            out[name].append(value)
    return out
