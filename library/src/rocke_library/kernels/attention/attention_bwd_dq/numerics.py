"""attention_bwd_dq on the simulator against the float64 backward reference: one problem, random
inputs, a Comparison. Shared by the numeric tests and `rocke sim`.

Inputs, LSE2 / D, the sentinel, the canaries and the tolerance are attention_bwd_main's
(attention_bwd_main/numerics.py, library/docs/attention.md): q, k standard normal, v and dO uniform
in [-1, 1], scale = 1 / sqrt(head_dim); dQ (the input dtype) pre-filled with -7.0 plus CANARY
sentinel elements past its end; max|err| <= atol + rtol * g * max|ref| and the per-row bound.
"""

from __future__ import annotations

import math

import numpy as np

from rocke.families.launcher import run
from rocke.sim import Comparison

from ..attention_bwd_main.numerics import CANARY, LOG2E, SENTINEL, Case, compare, seq_views, stat_layout
from .builder import TENSORS, build
from .contract import launch
from .reference import NUMPY_DTYPES, reference
from .spec import AttentionBwdDqSpec


def edge_case(spec: AttentionBwdDqSpec) -> Case:
    """Tails on both sequence lengths, S_q != S_k, GQA; varlen adds an empty query sequence and an
    empty key sequence (whose rows see nothing)."""
    if spec.seq_mode == "batched":
        return Case((spec.block_m + 5,) * 2, (spec.block_n + 7,) * 2, 4, 2)
    return Case((spec.block_m + 3, 0, 5), (spec.block_n + 9, 4, 0), 4, 2)


def _problem(spec: AttentionBwdDqSpec, case: Case) -> dict[str, int]:
    batch = len(case.seqlens_q)
    if spec.seq_mode == "varlen":
        return {"batch": batch, "max_seqlen_q": max(case.seqlens_q), "total_q": sum(case.seqlens_q),
                "total_k": sum(case.seqlens_k), "heads_q": case.heads_q, "heads_kv": case.heads_kv}
    return {"batch": batch, "seqlen_q": case.seqlens_q[0], "seqlen_k": case.seqlens_k[0],
            "heads_q": case.heads_q, "heads_kv": case.heads_kv}


def run_case(spec: AttentionBwdDqSpec, arch: str, case: Case, fault: str = "", seed: int | None = None
             ) -> Comparison:
    contract = launch(spec, _problem(spec, case))
    sizes = dict(contract.problem)
    d = spec.head_dim
    dtype = NUMPY_DTYPES[spec.dtype]
    rng = np.random.default_rng(sum(case.seqlens_q) * 1009 + sum(case.seqlens_k) * 31 + case.heads_q
                                if seed is None else seed)
    given: dict[str, object] = {}
    views: dict[str, list[np.ndarray]] = {}
    for tensor in TENSORS:
        query = tensor in ("q", "do", "dq")
        seqlens, heads = (case.seqlens_q, case.heads_q) if query else (case.seqlens_k, case.heads_kv)
        elems = contract.arg(tensor).bytes // dtype.itemsize
        if tensor in ("q", "k"):
            flat = rng.standard_normal(elems).astype(dtype)
        elif tensor in ("v", "do"):
            flat = rng.uniform(-1.0, 1.0, elems).astype(dtype)
        else:
            flat = np.full(elems + CANARY, SENTINEL, dtype)
            dq_flat = (flat, elems)
        given[tensor] = flat
        views[tensor] = seq_views(flat, spec.seq_mode, sizes, tensor, seqlens, heads, d)
    scale = float(np.float32(1.0 / math.sqrt(d)))
    want = reference(spec, {name: [np.array(x) for x in views[name]] for name in ("q", "k", "v", "do")} |
                     {"scale": scale})
    total_q = sum(case.seqlens_q)
    lse = stat_layout(spec, case, want["lse"], total_q)  # type: ignore[arg-type]
    given["lse2"] = np.where(np.isfinite(lse), lse * LOG2E, np.inf).astype(np.float32)
    given["delta"] = stat_layout(spec, case, want["delta"], total_q).astype(np.float32)  # type: ignore[arg-type]
    given["scale"] = scale
    if spec.seq_mode == "varlen":
        given["cu_seqlens_q"] = np.concatenate([[0], np.cumsum(case.seqlens_q)]).astype(np.int32)
        given["cu_seqlens_k"] = np.concatenate([[0], np.cumsum(case.seqlens_k)]).astype(np.int32)
    kernel = build(spec, arch, _fault=fault)
    run(kernel, arch=arch, grid=contract.grid, block=contract.block, args=contract.ordered_args(given),
        check_races=True)
    name = f"attention_bwd_dq {spec.dtype} {spec.mask} {spec.seq_mode}"
    return compare(name, spec, case, {"dq": views["dq"]}, {"dq": want["dq"]}, {"dq": dq_flat})  # type: ignore[arg-type]


def numerics(spec: AttentionBwdDqSpec, arch: str, seed: int) -> Comparison:
    """The `rocke sim` entry: the edge case on random inputs drawn from `seed`."""
    return run_case(spec, arch, edge_case(spec), seed=seed)


__all__ = ["edge_case", "numerics", "run_case"]
