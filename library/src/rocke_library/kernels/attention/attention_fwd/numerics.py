"""attention_fwd on the simulator against the float64 reference: one problem, random inputs, a
Comparison. Shared by the numeric tests and `rocke sim`.

Inputs: q and k standard normal, v uniform in [-1, 1], scale = 1 / sqrt(head_dim). O and LSE are
pre-filled with the sentinel -7.0 (an unwritten element fails) and carry CANARY elements past their
ends that must keep it. Tolerance (the family's stated contract, library/docs/attention.md):
max|err| <= atol + rtol * g * max|ref| with g = max(1, sqrt(S_k / 1024)), per output, over O and
over the finite LSE values; f16 rtol 4e-3, atol 1e-4; bf16 rtol 2.5e-2, atol 1e-3. Rows that see
no key must hold O = 0 and LSE = -inf exactly; a NaN anywhere fails.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rocke.families.launcher import run
from rocke.sim import Comparison

from .builder import TENSORS, build
from .contract import launch, stride_keys
from .reference import NUMPY_DTYPES, reference, visible
from .spec import AttentionFwdSpec

TOL = {"f16": (4e-3, 1e-4), "bf16": (2.5e-2, 1e-3)}  # (rtol, atol)
SENTINEL = -7.0
CANARY = 16  # elements past the end of O and LSE


@dataclass(frozen=True)
class Case:
    """One problem: per-sequence lengths (batched: all equal), heads, and the batched layout
    ("bshd": contiguous [B, S, H, D]; "bhsd": [B, H, S, D] through the stride arguments)."""

    seqlens_q: tuple[int, ...]
    seqlens_k: tuple[int, ...]
    heads_q: int
    heads_kv: int
    layout: str = "bshd"


def edge_case(spec: AttentionFwdSpec) -> Case:
    """Tails on both sequence lengths, S_q != S_k, GQA; varlen adds an empty query sequence and an
    empty key sequence (whose rows see nothing)."""
    if spec.seq_mode == "batched":
        return Case((spec.block_m + 5,) * 2, (spec.block_n + 7,) * 2, 4, 2)
    return Case((spec.block_m + 3, 0, 5), (spec.block_n + 9, 4, 0), 4, 2)


def _problem(spec: AttentionFwdSpec, case: Case) -> dict[str, int]:
    batch = len(case.seqlens_q)
    if spec.seq_mode == "varlen":
        return {"batch": batch, "max_seqlen_q": max(case.seqlens_q), "total_q": sum(case.seqlens_q),
                "total_k": sum(case.seqlens_k), "heads_q": case.heads_q, "heads_kv": case.heads_kv}
    problem = {"batch": batch, "seqlen_q": case.seqlens_q[0], "seqlen_k": case.seqlens_k[0],
               "heads_q": case.heads_q, "heads_kv": case.heads_kv}
    if case.layout == "bhsd":
        d = spec.head_dim
        for tensor in TENSORS:
            kv = tensor in ("k", "v")
            s = case.seqlens_k[0] if kv else case.seqlens_q[0]
            h = case.heads_kv if kv else case.heads_q
            problem.update({f"{tensor}_stride_b": h * s * d, f"{tensor}_stride_s": d, f"{tensor}_stride_h": s * d})
    return problem


def _view(flat: np.ndarray, seq_mode: str, sizes: dict[str, int], tensor: str, seqlens: tuple[int, ...],
          heads: int, d: int) -> list[np.ndarray]:
    """Per-sequence [S, H, D] views into a flat buffer through the contract's strides."""
    item = flat.itemsize
    ss, sh = sizes[f"{tensor}_stride_s"], sizes[f"{tensor}_stride_h"]
    views, start = [], 0
    for b, s in enumerate(seqlens):
        offset = b * sizes[f"{tensor}_stride_b"] if seq_mode == "batched" else start * ss
        start += s
        if s == 0:
            views.append(np.zeros((0, heads, d), flat.dtype))
            continue
        views.append(np.lib.stride_tricks.as_strided(flat[offset:], (s, heads, d), (ss * item, sh * item, item)))
    return views


def _fail(name: str, count: int, message: str, err: float = math.inf) -> Comparison:
    return Comparison(False, name, count, 1, err, None, f"{name}: {message}")


def run_case(spec: AttentionFwdSpec, arch: str, case: Case, fault: str = "", seed: int | None = None) -> Comparison:
    problem = _problem(spec, case)
    contract = launch(spec, problem)
    sizes = dict(contract.problem)
    d = spec.head_dim
    dtype = NUMPY_DTYPES[spec.dtype]
    rng = np.random.default_rng(sum(case.seqlens_q) * 1009 + sum(case.seqlens_k) * 31 + case.heads_q
                                if seed is None else seed)
    buffers: dict[str, np.ndarray] = {}
    views: dict[str, list[np.ndarray]] = {}
    for tensor in TENSORS:
        kv = tensor in ("k", "v")
        elems = contract.arg(tensor).bytes // dtype.itemsize
        seqlens, heads = (case.seqlens_k, case.heads_kv) if kv else (case.seqlens_q, case.heads_q)
        if tensor == "o":
            flat = np.full(elems + CANARY, SENTINEL, dtype)
        elif tensor == "v":
            flat = rng.uniform(-1.0, 1.0, elems).astype(dtype)
        else:
            flat = rng.standard_normal(elems).astype(dtype)
        buffers[tensor] = flat
        views[tensor] = _view(flat, spec.seq_mode, sizes, tensor, seqlens, heads, d)
    lse_elems = contract.arg("lse").bytes // 4
    lse = np.full(lse_elems + CANARY, SENTINEL, np.float32)
    scale = 1.0 / math.sqrt(d)
    given: dict[str, object] = {**buffers, "lse": lse, "scale": scale}
    if spec.seq_mode == "varlen":
        given["cu_seqlens_q"] = np.concatenate([[0], np.cumsum(case.seqlens_q)]).astype(np.int32)
        given["cu_seqlens_k"] = np.concatenate([[0], np.cumsum(case.seqlens_k)]).astype(np.int32)
    kernel = build(spec, arch, _fault=fault)
    run(kernel, arch=arch, grid=contract.grid, block=contract.block, args=contract.ordered_args(given),
        check_races=True)
    want = reference(spec, {"q": [np.array(x) for x in views["q"]], "k": [np.array(x) for x in views["k"]],
                            "v": [np.array(x) for x in views["v"]], "scale": float(np.float32(scale))})
    name = f"attention_fwd {spec.dtype} {spec.mask} {spec.seq_mode}"
    # Device LSE by sequence: batched [B, H, S], varlen [H, total_q].
    got_lse = []
    start = 0
    for b, s in enumerate(case.seqlens_q):
        if spec.seq_mode == "batched":
            got_lse.append(lse[b * case.heads_q * s:(b + 1) * case.heads_q * s].reshape(case.heads_q, s))
        else:
            got_lse.append(lse[:lse_elems].reshape(case.heads_q, sizes["total_q"])[:, start:start + s])
        start += s
    return compare_outputs(name, spec, views["o"], got_lse, want["o"], want["lse"], case, buffers["o"], lse,
                           contract.arg("o").bytes // dtype.itemsize, lse_elems)


def compare_outputs(name: str, spec: AttentionFwdSpec, got_o: list[np.ndarray], got_lse: list[np.ndarray],
                    want_o: list[np.ndarray], want_lse: list[np.ndarray], case: Case, o_flat: np.ndarray,
                    lse_flat: np.ndarray, o_elems: int, lse_elems: int) -> Comparison:
    """The family's comparison (see the module docstring)."""
    rtol, atol = TOL[spec.dtype]
    g = max(1.0, math.sqrt(max(case.seqlens_k) / 1024))
    go = [np.asarray(x).astype(np.float64) for x in got_o]
    gl = [np.asarray(x).astype(np.float64) for x in got_lse]
    count = sum(x.size for x in go) + sum(x.size for x in gl)
    if np.any(o_flat[o_elems:].astype(np.float64) != SENTINEL) or np.any(lse_flat[lse_elems:] != SENTINEL):
        return _fail(name, count, "a canary past the end of O or LSE was overwritten")
    if any(np.isnan(x).any() for x in go + gl):
        return _fail(name, count, "NaN in O or LSE")
    for b, s in enumerate(case.seqlens_q):
        dead = ~visible(spec.mask, s, case.seqlens_k[b]).any(axis=1)
        if dead.any():
            if np.any(go[b][dead] != 0.0):
                return _fail(name, count, f"sequence {b}: a row that sees no key has O != 0")
            if np.any(gl[b][:, dead] != -np.inf):
                return _fail(name, count, f"sequence {b}: a row that sees no key has LSE != -inf")
    o_err = max((float(np.abs(x - y).max()) for x, y in zip(go, want_o, strict=True) if x.size), default=0.0)
    o_ref = max((float(np.abs(y).max()) for y in want_o if y.size), default=0.0)
    finite = [(x, y) for x, y in zip(gl, want_lse, strict=True)]
    lse_err, lse_ref = 0.0, 0.0
    for x, y in finite:
        live = np.isfinite(y)
        if np.any(np.isfinite(x) != live):
            return _fail(name, count, "LSE is infinite where a row sees keys (or finite where it sees none)")
        if live.any():
            lse_err = max(lse_err, float(np.abs(x[live] - y[live]).max()))
            lse_ref = max(lse_ref, float(np.abs(y[live]).max()))
    o_bound = atol + rtol * g * o_ref
    lse_bound = atol + rtol * g * lse_ref
    rel = max(o_err / o_ref if o_ref else 0.0, lse_err / lse_ref if lse_ref else 0.0)
    tol = f"max|err| <= {atol:g} + {rtol:g} * {g:.3g} * max|ref|"
    text = f"O max err {o_err:.3g} (bound {o_bound:.3g}), LSE max err {lse_err:.3g} (bound {lse_bound:.3g}); {tol}"
    ok = o_err <= o_bound and lse_err <= lse_bound
    return Comparison(ok, name, count, 0 if ok else 1, max(o_err, lse_err), None, f"{name}: {text}", rel)


def numerics(spec: AttentionFwdSpec, arch: str, seed: int) -> Comparison:
    """The `rocke sim` entry: the edge case on random inputs drawn from `seed`."""
    return run_case(spec, arch, edge_case(spec), seed=seed)


__all__ = ["CANARY", "SENTINEL", "TOL", "Case", "compare_outputs", "edge_case", "numerics", "run_case", "stride_keys"]
