"""attention_bwd_convert on the simulator against its float64 reference: one problem, random f32
workspaces (uniform in [-2, 2]), a Comparison. Shared by the numeric tests and `rocke sim`.

The workspaces live in one f32 buffer laid out as the backward plan lays it out
(backward_plan.workspace_layout): the lse2 and delta slices and the alignment gaps, which convert
must not read, hold NaN. Outputs are pre-filled with SENTINEL (an unwritten element fails; the gaps
of a padded output layout must keep it) and carry CANARY elements past their ends. Tolerance per
element: |err| <= 2^-p * |ref| + 2^-24 with p the output dtype's stored mantissa bits (f16 10,
bf16 7): one rounding to the dtype plus the f32 sum of a GQA group.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rocke.families.launcher import run
from rocke.sim import Comparison, compare

from ..attention_fwd.reference import NUMPY_DTYPES
from ..backward_plan import workspace_layout
from .builder import build
from .contract import launch
from .reference import reference
from .spec import AttentionBwdConvertSpec

SENTINEL = -7.0
CANARY = 16  # elements past the end of every output
MANTISSA = {"f16": 10, "bf16": 7}


@dataclass(frozen=True)
class Case:
    """batched: batch sequences of seqlen_q / seqlen_k tokens; varlen: batch * seqlen tokens packed.
    layout "bshd" (contiguous) or "padded" (every head line padded by 8 elements, every token by
    16 more: arbitrary strides with gaps that must stay untouched)."""

    batch: int
    seqlen_q: int
    seqlen_k: int
    heads_q: int
    heads_kv: int
    layout: str = "bshd"


def edge_case(spec: AttentionBwdConvertSpec) -> Case:
    """Rows that do not fill the last workgroup, S_q != S_k, GQA (group 3), padded outputs."""
    return Case(2, 13, 9, 6, 2, "padded")


def _fail(name: str, count: int, message: str) -> Comparison:
    return Comparison(False, name, count, 1, math.inf, None, f"{name}: {message}")


def run_case(spec: AttentionBwdConvertSpec, arch: str, case: Case, fault: str = "", seed: int | None = None
             ) -> Comparison:
    d = spec.head_dim
    batched = spec.seq_mode == "batched"
    sizes = {"batch": case.batch, "heads_q": case.heads_q, "heads_kv": case.heads_kv}
    if batched:
        sizes.update(seqlen_q=case.seqlen_q, seqlen_k=case.seqlen_k)
    else:
        sizes.update(total_q=case.batch * case.seqlen_q, total_k=case.batch * case.seqlen_k)
    problem = {k: v for k, v in sizes.items() if k != "batch" or batched}
    toks = {"dq": case.batch * case.seqlen_q, "dk": case.batch * case.seqlen_k, "dv": case.batch * case.seqlen_k}
    out_heads = {"dq": case.heads_q, "dk": case.heads_kv, "dv": case.heads_kv}
    if case.layout == "padded":
        for t in spec.tensors:
            line = d + 8
            token = out_heads[t] * line + 16
            problem.update({f"{t}_stride_h": line, f"{t}_stride_s": token})
            if batched:
                seqlen = case.seqlen_q if t == "dq" else case.seqlen_k
                problem[f"{t}_stride_b"] = seqlen * token
    contract = launch(spec, problem)
    strides = dict(contract.problem)
    dtype = NUMPY_DTYPES[spec.dtype]
    rng = np.random.default_rng(case.batch * 1009 + case.seqlen_q * 31 + case.heads_q if seed is None else seed)
    slices = {s.name: s for s in workspace_layout(spec.seq_mode, sizes, d, spec.dq_mode, spec.dkv_mode)}
    end = max(s.offset + s.bytes for s in slices.values()) // 4
    ws = np.full(end, np.nan, np.float32)
    logical = {}
    given: dict[str, object] = {}
    for t in spec.tensors:
        s = slices[f"{t}_acc"]
        view = ws[s.offset // 4:(s.offset + s.bytes) // 4]
        view[:] = rng.uniform(-2.0, 2.0, view.size).astype(np.float32)
        given[f"{t}_acc"] = view
        ws_heads = case.heads_q if t == "dq" or spec.dkv_mode == "split" else case.heads_kv
        logical[f"{t}_acc"] = view.reshape(toks[t], ws_heads, d)
    outs = {}
    for t in spec.tensors:
        elems = contract.arg(t).bytes // dtype.itemsize
        outs[t] = np.full(elems + CANARY, SENTINEL, dtype)
        given[t] = outs[t]
    kernel = build(spec, arch, _fault=fault)
    run(kernel, arch=arch, grid=contract.grid, block=contract.block, args=contract.ordered_args(given),
        check_races=True)
    want = reference(spec, {**logical, "group": case.heads_q // case.heads_kv})
    name = f"attention_bwd_convert {spec.dtype} {spec.seq_mode} dq_mode={spec.dq_mode} dkv_mode={spec.dkv_mode}"
    rtol = 2.0 ** -MANTISSA[spec.dtype]
    results = []
    for t in spec.tensors:
        flat = outs[t]
        elems = flat.size - CANARY
        count = want[t].size
        if np.any(flat[elems:].astype(np.float64) != SENTINEL):
            return _fail(name, count, f"a canary past the end of {t} was overwritten")
        seq = case.seqlen_q if t == "dq" else case.seqlen_k
        ss, sh = strides[f"{t}_stride_s"], strides[f"{t}_stride_h"]
        touched = np.zeros(elems, bool)
        got = np.zeros((toks[t], out_heads[t], d))
        for tok in range(toks[t]):
            base = (tok // seq) * strides[f"{t}_stride_b"] + (tok % seq) * ss if batched else tok * ss
            for h in range(out_heads[t]):
                start = base + h * sh
                touched[start:start + d] = True
                got[tok, h] = flat[start:start + d].astype(np.float64)
        if np.any(flat[:elems][~touched].astype(np.float64) != SENTINEL):
            return _fail(name, count, f"an element of {t} between its rows (a stride gap) was written")
        result = compare(got, want[t], rtol=rtol, atol=2.0**-24, name=f"{name} {t}")
        if not result.ok:
            return result
        results.append(result)
    worst = max(r.max_abs_error for r in results)
    text = "; ".join(f"{t} max err {r.max_abs_error:.3g}" for t, r in zip(spec.tensors, results, strict=True))
    return Comparison(True, name, sum(r.count for r in results), 0, worst, None,
                      f"{name}: {text} (within 2^-{MANTISSA[spec.dtype]} * |ref| + 2^-24)",
                      max(r.max_rel_error for r in results))


def numerics(spec: AttentionBwdConvertSpec, arch: str, seed: int) -> Comparison:
    """The `rocke sim` entry: the edge case on random workspaces drawn from `seed`."""
    return run_case(spec, arch, edge_case(spec), seed=seed)


__all__ = ["CANARY", "SENTINEL", "Case", "edge_case", "numerics", "run_case"]
