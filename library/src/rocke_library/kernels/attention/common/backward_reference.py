"""float64 reference of the whole attention backward, written from the math (not from any
builder, and not from the forward's reference), one sequence at a time.

For query head h (kv head g = h // (h_q / h_kv)), query row i and key j, with the mask deciding
which keys row i sees (none: all; causal_tl: j <= i; causal_br: j <= i + s_k - s_q):

    S_ij   = scale * sum_d Q[i, h, d] K[j, g, d]                  (visible pairs only)
    LSE_i  = log sum_j exp(S_ij)                                   (-inf when row i sees no key)
    P_ij   = exp(S_ij - LSE_i), 0 for invisible pairs and dead rows
    O_i    = sum_j P_ij V[j, g]
    dP_ij  = sum_d dO[i, h, d] V[j, g, d]
    D_i    = sum_j P_ij dP_ij          (= dO_i . O_i)
    dS_ij  = P_ij (dP_ij - D_i)
    dQ[i, h]  = scale * sum_j dS_ij K[j, g]
    dK[j, g] += scale * sum_i dS_ij Q[i, h]        (summed over the query heads of the group)
    dV[j, g] += sum_i P_ij dO[i, h]

Arrays are logical per sequence: q, do [S_q, H_q, D]; k, v [S_k, H_kv, D]; lse [H_q, S_q].

The backward takes O as an input (the forward's output, in the input dtype). Given that O,
D_i = dO_i . O_i is computed from it, as the kernels do: the exact O of the formulas above differs
from it by the dtype's rounding, and that difference is the forward's, not the backward's (on bf16
it alone moves a small dQ row past its per-row bound). Without a given O, D is the exact sum.
Every loop is explicit over heads; the products over rows and keys are matrix products in float64.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MASKS = ("none", "causal_tl", "causal_br")


def sees(mask: str, s_q: int, s_k: int) -> np.ndarray:
    """[s_q, s_k] bool: True where query row i sees key j."""
    if mask not in MASKS:
        raise ValueError(f"unknown mask '{mask}'")
    out = np.zeros((s_q, s_k), bool)
    for i in range(s_q):
        if mask == "none":
            last = s_k - 1
        elif mask == "causal_tl":
            last = min(i, s_k - 1)
        else:
            last = min(i + s_k - s_q, s_k - 1)
        if last >= 0:
            out[i, :last + 1] = True
    return out


@dataclass(frozen=True)
class Backward:
    """One sequence's forward outputs and gradients, float64."""

    o: np.ndarray  # [S_q, H_q, D]
    lse: np.ndarray  # [H_q, S_q], natural log, -inf for dead rows
    delta: np.ndarray  # [H_q, S_q]
    dq: np.ndarray  # [S_q, H_q, D]
    dk: np.ndarray  # [S_k, H_kv, D]
    dv: np.ndarray  # [S_k, H_kv, D]


def backward(mask: str, q: np.ndarray, k: np.ndarray, v: np.ndarray, do: np.ndarray, scale: float,
             o_given: np.ndarray | None = None) -> Backward:
    """The forward statistics and the gradients of one sequence (see the module docstring); D from
    o_given [S_q, H_q, D] when given (the O the kernels read), else exact."""
    q, k, v, do = (np.asarray(x).astype(np.float64) for x in (q, k, v, do))
    given = None if o_given is None else np.asarray(o_given).astype(np.float64)
    s_q, h_q, d = q.shape
    s_k, h_kv, _ = k.shape
    if h_q % h_kv != 0:
        raise ValueError(f"h_q={h_q} is not a multiple of h_kv={h_kv}")
    group = h_q // h_kv
    seen = sees(mask, s_q, s_k)
    live = seen.any(axis=1)
    o = np.zeros((s_q, h_q, d))
    lse = np.full((h_q, s_q), -np.inf)
    delta = np.zeros((h_q, s_q))
    dq = np.zeros((s_q, h_q, d))
    dk = np.zeros((s_k, h_kv, d))
    dv = np.zeros((s_k, h_kv, d))
    for h in range(h_q):
        g = h // group
        qh, kg, vg, doh = q[:, h, :], k[:, g, :], v[:, g, :], do[:, h, :]
        s = scale * (qh @ kg.T)
        p = np.zeros((s_q, s_k))
        for i in np.flatnonzero(live):
            row = s[i, seen[i]]
            top = row.max()
            total = np.exp(row - top).sum()
            lse[h, i] = top + np.log(total)
            p[i, seen[i]] = np.exp(row - lse[h, i])
        o[:, h, :] = p @ vg
        dp = doh @ vg.T
        delta[h] = (p * dp).sum(axis=1) if given is None else (doh * given[:, h, :]).sum(axis=1) * live
        ds = p * (dp - delta[h][:, None])
        dq[:, h, :] = scale * (ds @ kg)
        dk[:, g, :] += scale * (ds.T @ qh)
        dv[:, g, :] += p.T @ doh
    return Backward(o, lse, delta, dq, dk, dv)


def tolerance(dtype: str, s_k: int) -> tuple[float, float, float]:
    """(atol, rtol, g) of the backward's comparisons: max|err| <= atol + rtol * g * max|ref| with
    g = max(1, sqrt(S_k / 1024)); f16 rtol 4e-3, atol 1e-4; bf16 rtol 2.5e-2, atol 1e-3."""
    rtol, atol = {"f16": (4e-3, 1e-4), "bf16": (2.5e-2, 1e-3)}[dtype]
    return atol, rtol, max(1.0, float(np.sqrt(s_k / 1024)))


def check_gradient(name: str, got: list[np.ndarray], want: list[np.ndarray], dtype: str, s_k: int
                   ) -> tuple[bool, str, float]:
    """One gradient over its sequences: max|err| <= atol + rtol * g * max|ref| over the tensor, and
    per row (token, head) max|err| <= atol + rtol * g * max(max|ref row|, 5% of max|ref|); NaN fails.
    Returns (ok, text, max error)."""
    atol, rtol, g = tolerance(dtype, s_k)
    peak = max((float(np.abs(w).max()) for w in want if w.size), default=0.0)
    err = 0.0
    for x, w in zip(got, want, strict=True):
        if not x.size:
            continue
        x64 = np.asarray(x, dtype=np.float64)
        if np.isnan(x64).any():
            return False, f"{name}: NaN", float("inf")
        e = np.abs(x64 - w)
        err = max(err, float(e.max()))
        row_ref = np.maximum(np.abs(w).max(axis=-1), 0.05 * peak)
        row_bad = e.max(axis=-1) > atol + rtol * g * row_ref
        if row_bad.any():
            where = tuple(int(i) for i in np.argwhere(row_bad)[0])
            return False, (f"{name}: row {list(where)} max err {float(e.max(axis=-1)[where]):.3g} over its bound "
                           f"{atol + rtol * g * float(row_ref[where]):.3g}"), err
    bound = atol + rtol * g * peak
    return err <= bound, f"{name} max err {err:.3g} (bound {bound:.3g})", err
