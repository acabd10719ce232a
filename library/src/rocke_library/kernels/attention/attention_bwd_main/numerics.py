"""attention_bwd_main on the simulator against the float64 reference: one problem, random inputs,
a Comparison. Shared by the numeric tests and `rocke sim`.

Inputs: q, k standard normal, v and dO uniform in [-1, 1], scale = 1 / sqrt(head_dim); LSE2 and D
come from the float64 reference (what attention_bwd_prep computes: LSE * log2(e) and
rowsum(dO * O) in f32; +inf and 0 for rows that see no key). Outputs: dkv_mode=direct dK and dV and
the dkv_mode=split slices (which need no zero-init) are pre-filled with the sentinel -7.0 (an
unwritten element fails); the atomic workspaces (dK, dV in atomic mode, dQ with dq_mode=atomic)
hold zeros as prep leaves them. dkv_mode=split is checked slice by slice: each query head's dK, dV
share against the reference of the same problem with K and V repeated per query head (one kv head
per query head), so a slice written to the wrong head fails. Every output buffer carries
CANARY sentinel elements past its end that must stay untouched. Tolerance (library/docs/attention.md):
per output (dQ, dK, dV separately) max|err| <= atol + rtol * g * max|ref| with
g = max(1, sqrt(S_k / 1024)) and, per row (token, head), max|err| <= atol + rtol * g *
max(max|ref row|, 0.05 * max|ref|); f16 rtol 4e-3, atol 1e-4; bf16 rtol 2.5e-2, atol 1e-3. A NaN
anywhere fails.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rocke.families.launcher import run
from rocke.sim import Comparison

from .builder import QUERY_SIDE, build, query_heads, tensors
from .contract import launch
from .reference import NUMPY_DTYPES, reference
from .spec import AttentionBwdMainSpec

TOL = {"f16": (4e-3, 1e-4), "bf16": (2.5e-2, 1e-3)}  # (rtol, atol)
SENTINEL = -7.0
CANARY = 16  # elements past the end of every output
ROW_FLOOR = 0.05  # the per-row bound's floor, as a fraction of the tensor's max|ref|
LOG2E = 1.4426950408889634


@dataclass(frozen=True)
class Case:
    """One problem: per-sequence lengths (batched: all equal) and heads."""

    seqlens_q: tuple[int, ...]
    seqlens_k: tuple[int, ...]
    heads_q: int
    heads_kv: int


def edge_case(spec: AttentionBwdMainSpec) -> Case:
    """Tails on both sequence lengths, S_q != S_k, GQA where dkv_mode is atomic or split; varlen
    adds an empty query sequence and an empty key sequence (whose rows see nothing)."""
    heads = (2, 2) if spec.dkv_mode == "direct" else (4, 2)
    if spec.seq_mode == "batched":
        return Case((spec.block_m + 5,) * 2, (spec.block_n + 7,) * 2, *heads)
    return Case((spec.block_m + 3, 0, 5), (spec.block_n + 9, 4, 0), *heads)


def _problem(spec: AttentionBwdMainSpec, case: Case) -> dict[str, int]:
    batch = len(case.seqlens_q)
    if spec.seq_mode == "varlen":
        return {"batch": batch, "max_seqlen_k": max(case.seqlens_k), "total_q": sum(case.seqlens_q),
                "total_k": sum(case.seqlens_k), "heads_q": case.heads_q, "heads_kv": case.heads_kv}
    return {"batch": batch, "seqlen_q": case.seqlens_q[0], "seqlen_k": case.seqlens_k[0],
            "heads_q": case.heads_q, "heads_kv": case.heads_kv}


def seq_views(flat: np.ndarray, seq_mode: str, sizes: dict[str, int], tensor: str, seqlens: tuple[int, ...],
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


def stat_layout(spec: AttentionBwdMainSpec, case: Case, per_seq: list[np.ndarray], total: int) -> np.ndarray:
    """Per-sequence [H_q, S_q] arrays laid out as batched [B, H_q, S_q] or varlen [H_q, total_q]."""
    if spec.seq_mode == "batched":
        return np.concatenate([x.reshape(-1) for x in per_seq]) if per_seq else np.zeros(0)
    out = np.zeros((case.heads_q, total))
    start = 0
    for x, s in zip(per_seq, case.seqlens_q, strict=True):
        out[:, start:start + s] = x
        start += s
    return out.reshape(-1)


def _fail(name: str, count: int, message: str, err: float = math.inf) -> Comparison:
    return Comparison(False, name, count, 1, err, None, f"{name}: {message}")


def run_case(spec: AttentionBwdMainSpec, arch: str, case: Case, fault: str = "", seed: int | None = None
             ) -> Comparison:
    problem = _problem(spec, case)
    contract = launch(spec, problem)
    sizes = dict(contract.problem)
    d = spec.head_dim
    dtype = NUMPY_DTYPES[spec.dtype]
    rng = np.random.default_rng(sum(case.seqlens_q) * 1009 + sum(case.seqlens_k) * 31 + case.heads_q
                                if seed is None else seed)
    given: dict[str, object] = {}
    views: dict[str, list[np.ndarray]] = {}
    flats: dict[str, tuple[np.ndarray, int]] = {}
    for tensor in tensors(spec):
        seqlens = case.seqlens_q if tensor in QUERY_SIDE else case.seqlens_k
        heads = case.heads_q if query_heads(spec, tensor) else case.heads_kv
        f32_out = tensor.endswith("_acc")
        kind = np.dtype(np.float32) if f32_out else dtype
        elems = contract.arg(tensor).bytes // kind.itemsize
        if tensor in ("q", "k"):
            flat = rng.standard_normal(elems).astype(kind)
        elif tensor in ("v", "do"):
            flat = rng.uniform(-1.0, 1.0, elems).astype(kind)
        else:
            flat = np.full(elems + CANARY, SENTINEL, kind)
            if tensor in contract.zero_init:
                flat[:elems] = 0.0
            flats[tensor] = (flat, elems)
        given[tensor] = flat
        views[tensor] = seq_views(flat, spec.seq_mode, sizes, tensor, seqlens, heads, d)
    scale = float(np.float32(1.0 / math.sqrt(d)))
    inputs: dict[str, object] = {name: [np.array(x) for x in views[name]] for name in ("q", "k", "v", "do")}
    if spec.dkv_mode == "split":
        group = case.heads_q // case.heads_kv
        for name in ("k", "v"):
            inputs[name] = [np.repeat(x, group, axis=1) for x in inputs[name]]  # type: ignore[attr-defined]
    want = reference(spec, inputs | {"scale": scale})
    total_q = sum(case.seqlens_q)
    lse = stat_layout(spec, case, want["lse"], total_q)
    given["lse2"] = np.where(np.isfinite(lse), lse * LOG2E, np.inf).astype(np.float32)
    given["delta"] = stat_layout(spec, case, want["delta"], total_q).astype(np.float32)
    given["scale"] = scale
    if spec.seq_mode == "varlen":
        given["cu_seqlens_q"] = np.concatenate([[0], np.cumsum(case.seqlens_q)]).astype(np.int32)
        given["cu_seqlens_k"] = np.concatenate([[0], np.cumsum(case.seqlens_k)]).astype(np.int32)
    kernel = build(spec, arch, _fault=fault)
    run(kernel, arch=arch, grid=contract.grid, block=contract.block, args=contract.ordered_args(given),
        check_races=True)
    name = f"attention_bwd_main {spec.dtype} {spec.mask} {spec.seq_mode} dq={spec.dq_mode} dkv={spec.dkv_mode}"
    outputs = {t.removesuffix("_acc"): t for t in flats}
    return compare(name, spec, case, {o: views[t] for o, t in outputs.items()}, {o: want[o] for o in outputs},
                   {o: flats[t] for o, t in outputs.items()})


def compare(name: str, spec: AttentionBwdMainSpec, case: Case, got: dict[str, list[np.ndarray]],
            want: dict[str, list[np.ndarray]], flats: dict[str, tuple[np.ndarray, int]]) -> Comparison:
    """The family's comparison (see the module docstring), every output separately."""
    rtol, atol = TOL[spec.dtype]
    g = max(1.0, math.sqrt(max(case.seqlens_k) / 1024))
    count = sum(np.asarray(x).size for xs in got.values() for x in xs)
    texts, worst, rel, ok = [], 0.0, 0.0, True
    for tensor, (flat, elems) in flats.items():
        if np.any(flat[elems:].astype(np.float64) != SENTINEL):
            return _fail(name, count, f"a canary past the end of {tensor} was overwritten")
    for tensor in got:
        gs = [np.asarray(x).astype(np.float64) for x in got[tensor]]
        ws = want[tensor]
        if any(np.isnan(x).any() for x in gs):
            return _fail(name, count, f"NaN in {tensor}")
        ref = max((float(np.abs(y).max()) for y in ws if y.size), default=0.0)
        err = max((float(np.abs(x - y).max()) for x, y in zip(gs, ws, strict=True) if x.size), default=0.0)
        bound = atol + rtol * g * ref
        row_bad = 0
        for x, y in zip(gs, ws, strict=True):
            if not x.size:
                continue
            row_err = np.abs(x - y).max(axis=2)
            row_ref = np.maximum(np.abs(y).max(axis=2), ROW_FLOOR * ref)
            row_bad += int(np.count_nonzero(row_err > atol + rtol * g * row_ref))
        good = err <= bound and row_bad == 0
        ok = ok and good
        worst = max(worst, err)
        rel = max(rel, err / ref if ref else 0.0)
        texts.append(f"{tensor} max err {err:.3g} (bound {bound:.3g}, rows over their bound {row_bad})")
    tol = f"max|err| <= {atol:g} + {rtol:g} * {g:.3g} * max|ref|"
    return Comparison(ok, name, count, 0 if ok else 1, worst, None, f"{name}: {'; '.join(texts)}; {tol}", rel)


def numerics(spec: AttentionBwdMainSpec, arch: str, seed: int) -> Comparison:
    """The `rocke sim` entry: the edge case on random inputs drawn from `seed`."""
    return run_case(spec, arch, edge_case(spec), seed=seed)


__all__ = ["CANARY", "LOG2E", "SENTINEL", "TOL", "Case", "compare", "edge_case", "numerics", "run_case", "seq_views",
           "stat_layout"]
