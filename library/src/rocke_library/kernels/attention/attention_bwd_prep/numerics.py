"""attention_bwd_prep on the simulator against its float64 reference: one problem, random inputs
(O and dO uniform in [-2, 2], LSE standard normal with dead rows at -inf and NaN), a Comparison.
Shared by the numeric tests and `rocke sim`.

The outputs live in one f32 workspace laid out as the backward plan lays it out
(backward_plan.workspace_layout): lse2, delta, then the accumulation region, each at a 256-byte
aligned offset. The whole workspace starts NaN (an unwritten output element fails; the alignment
gaps must stay NaN) with CANARY elements of SENTINEL past its end that must keep it. Checks: lse2
within 2^-22 relative of LSE * log2(e) and exactly +inf on dead rows; D within the f32 summation
bound head_dim * 2^-24 * sum |dO * O| of its row and exactly 0 on dead rows; the zero region all 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rocke.families.launcher import run
from rocke.sim import Comparison

from ..attention_fwd.reference import NUMPY_DTYPES
from ..backward_plan import Slice, workspace_layout, zero_region
from .builder import TENSORS, build
from .contract import launch
from .reference import delta_bound, reference
from .spec import AttentionBwdPrepSpec

SENTINEL = -7.0
CANARY = 16  # f32 elements past the end of the workspace
LSE2_RTOL = 2.0**-22


@dataclass(frozen=True)
class Case:
    """batched: batch x seqlen_q rows per head ("bshd" contiguous or "bhsd" through the strides);
    varlen: total_q tokens. zero_heads sizes the accumulation region like a dq_acc and dk/dv_acc of
    that many heads over seqlen_k (batched) or total_k (varlen) rows."""

    batch: int
    seqlen_q: int
    heads_q: int
    seqlen_k: int
    zero_heads: int = 1
    layout: str = "bshd"


def edge_case(spec: AttentionBwdPrepSpec) -> Case:
    """Rows not a multiple of the block, GQA-shaped dk/dv accumulation (2 kv heads)."""
    return Case(2, spec.rows_per_block + 3, 3, 37, 2)


def _sizes(spec: AttentionBwdPrepSpec, case: Case) -> dict[str, int]:
    if spec.seq_mode == "batched":
        return {"batch": case.batch, "seqlen_q": case.seqlen_q, "seqlen_k": case.seqlen_k, "heads_q": case.heads_q,
                "heads_kv": case.zero_heads}
    return {"batch": case.batch, "total_q": case.batch * case.seqlen_q, "total_k": case.batch * case.seqlen_k,
            "heads_q": case.heads_q, "heads_kv": case.zero_heads}


def _fail(name: str, count: int, message: str) -> Comparison:
    return Comparison(False, name, count, 1, math.inf, None, f"{name}: {message}")


def run_case(spec: AttentionBwdPrepSpec, arch: str, case: Case, fault: str = "", seed: int | None = None
             ) -> Comparison:
    sizes = _sizes(spec, case)
    slices = workspace_layout(spec.seq_mode, sizes, spec.head_dim, "atomic", "atomic")
    region = zero_region(slices)
    assert region is not None
    d, h = spec.head_dim, case.heads_q
    problem: dict[str, int] = {"heads_q": h, "zero_count": region.bytes // 4}
    rows = case.batch * case.seqlen_q
    if spec.seq_mode == "batched":
        problem.update(batch=case.batch, seqlen_q=case.seqlen_q)
        if case.layout == "bhsd":
            for tensor in TENSORS:
                problem.update({f"{tensor}_stride_b": h * case.seqlen_q * d, f"{tensor}_stride_s": d,
                                f"{tensor}_stride_h": case.seqlen_q * d})
    else:
        problem["total_q"] = rows
    contract = launch(spec, problem)
    dtype = NUMPY_DTYPES[spec.dtype]
    rng = np.random.default_rng(rows * 1009 + h * 31 + d if seed is None else seed)
    if spec.seq_mode == "batched":
        shape, stat = (case.batch, case.seqlen_q, h, d), (case.batch, h, case.seqlen_q)
    else:
        shape, stat = (rows, h, d), (h, rows)
    logical = {t: rng.uniform(-2.0, 2.0, shape).astype(dtype) for t in TENSORS}
    flat = {}
    for tensor in TENSORS:
        if spec.seq_mode == "batched" and case.layout == "bhsd":
            flat[tensor] = np.ascontiguousarray(logical[tensor].transpose(0, 2, 1, 3)).reshape(-1)
        else:
            flat[tensor] = logical[tensor].reshape(-1)
    lse = rng.standard_normal(stat).astype(np.float32)
    lse.reshape(-1)[::5] = -np.inf  # dead rows
    lse.reshape(-1)[3::11] = np.nan
    ends = max(s.offset + s.bytes for s in slices) // 4
    ws = np.full(ends + CANARY, np.nan, np.float32)
    ws[ends:] = SENTINEL

    def view(s: Slice) -> np.ndarray:
        return ws[s.offset // 4:(s.offset + s.bytes) // 4]

    by_name = {s.name: s for s in slices}
    given = {**flat, "lse": lse.reshape(-1), "lse2": view(by_name["lse2"]), "delta": view(by_name["delta"]),
             "zero_ws": view(region)}
    kernel = build(spec, arch, _fault=fault)
    run(kernel, arch=arch, grid=contract.grid, block=contract.block, args=contract.ordered_args(given),
        check_races=True)
    want = reference(spec, {"o": logical["o"], "do": logical["do"], "lse": lse})
    bound = delta_bound(spec, {"o": logical["o"], "do": logical["do"]})
    name = f"attention_bwd_prep {spec.dtype} {spec.seq_mode}"
    count = 2 * lse.size + region.bytes // 4
    if np.any(ws[ends:] != SENTINEL):
        return _fail(name, count, "a canary past the end of the workspace was overwritten")
    written = np.zeros(ends, bool)
    for s in (by_name["lse2"], by_name["delta"], region):
        written[s.offset // 4:(s.offset + s.bytes) // 4] = True
    if not np.isnan(ws[:ends][~written]).all():
        return _fail(name, count, "a workspace gap outside lse2, delta and the zero region was written")
    got_lse2 = view(by_name["lse2"]).reshape(stat).astype(np.float64)
    got_delta = view(by_name["delta"]).reshape(stat).astype(np.float64)
    if np.isnan(got_lse2).any() or np.isnan(got_delta).any():
        return _fail(name, count, "NaN in lse2 or delta (an unwritten row, or a dead row not handled)")
    zeros = view(region)
    if np.any(zeros != 0.0):
        return _fail(name, count, f"{int(np.count_nonzero(zeros != 0.0))} of {zeros.size} elements of the zero "
                                  f"region are not 0")
    live = np.isfinite(want["lse2"])
    if np.any(got_lse2[~live] != np.inf) or np.any(got_delta[~live] != 0.0):
        return _fail(name, count, "a dead row (LSE = -inf or NaN) has LSE2 != +inf or D != 0")
    lse2_err = np.abs(got_lse2[live] - want["lse2"][live])
    lse2_ok = bool(np.all(lse2_err <= LSE2_RTOL * np.abs(want["lse2"][live])))
    delta_err = np.abs(got_delta - want["delta"])
    delta_ok = bool(np.all(delta_err <= bound))
    worst = float(np.max(delta_err / np.maximum(bound, 1e-300))) if delta_err.size else 0.0
    lse2_max = float(lse2_err.max()) if lse2_err.size else 0.0
    delta_max = float(delta_err.max()) if delta_err.size else 0.0
    text = (f"LSE2 max err {lse2_max:.3g} (rtol {LSE2_RTOL:.3g}), D max err {delta_max:.3g} "
            f"({worst:.3g} of its f32 summation bound), zero region {zeros.size} elements 0")
    ok = lse2_ok and delta_ok
    return Comparison(ok, name, count, 0 if ok else 1, max(lse2_max, delta_max), None,
                      f"{name}: {text}")


def numerics(spec: AttentionBwdPrepSpec, arch: str, seed: int) -> Comparison:
    """The `rocke sim` entry: the edge case on random inputs drawn from `seed`."""
    return run_case(spec, arch, edge_case(spec), seed=seed)


__all__ = ["CANARY", "SENTINEL", "Case", "edge_case", "numerics", "run_case"]
