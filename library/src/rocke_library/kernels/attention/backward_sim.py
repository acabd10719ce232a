"""The attention backward end to end on the simulator: run a BackwardPlan launch by launch, and
compare dQ, dK, dV with the float64 reference (common/backward_reference.py).

run_plan follows the plan as a host would: one f32 workspace of plan.workspace_bytes (filled with
NaN, so a slice read before it is written poisons the result), every launch's arguments bound as
the plan says (user tensors by name, workspace slices by offset, scalars by value), kernels built
from (family, spec) and run in order. `faults` picks test-only broken variants per family (the
negative controls); `hosts` runs a family as a host function instead of a kernel (tests only).

run_case draws a problem's inputs (q, k standard normal, v uniform in [-1, 1], dO standard normal),
computes O and LSE with the reference (O rounded to the input dtype, LSE to f32: what the forward
hands the backward), runs the plan and checks each gradient: max|err| <= atol + rtol * g *
max|ref| per tensor and per row floored at 5% of the tensor's max (backward_reference.check_gradient);
outputs start as SENTINEL with CANARY elements past their ends that must keep it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from rocke.families.launcher import run
from rocke.sim import Comparison

from .attention_fwd.reference import NUMPY_DTYPES
from .backward_plan import BackwardPlan, backward_records, kv_tensor, plan_attention_bwd
from .common.backward_reference import backward, check_gradient

SENTINEL = -7.0
CANARY = 16
HostLaunch = Callable[[BackwardPlan, dict[str, object], Mapping[str, np.ndarray], np.ndarray], None]


def run_plan(plan: BackwardPlan, tensors: Mapping[str, np.ndarray], *, faults: Mapping[str, str] | None = None,
             hosts: Mapping[str, HostLaunch] | None = None, records: Mapping[str, object] | None = None,
             timings: dict[str, float] | None = None) -> np.ndarray:
    """Run every launch of the plan on the simulator; returns the workspace (f32, NaN where no
    launch wrote). tensors holds the user buffers by name (flat numpy arrays, written in place);
    timings, when given, receives the seconds each launch took (build and simulation) by family."""
    faults = faults or {}
    hosts = hosts or {}
    found = backward_records(records)
    ws = np.full(max(1, plan.workspace_bytes // 4), np.nan, np.float32)
    for launch in plan.launches:
        args: list[object] = []
        named: dict[str, object] = {}
        for arg in launch.args:
            kind = arg["kind"]
            if kind == "tensor":
                value: object = tensors[str(arg["tensor"])]
            elif kind == "workspace":
                start = int(arg["offset"]) // 4  # type: ignore[call-overload]
                value = ws[start:start + int(arg["bytes"]) // 4]  # type: ignore[call-overload]
            else:
                value = arg["value"]
            args.append(value)
            named[str(arg["name"])] = value
        start = time.perf_counter()
        if launch.family in hosts:
            hosts[launch.family](plan, named, tensors, ws)
            if timings is not None:
                timings[launch.family] = time.perf_counter() - start
            continue
        record = found[launch.family]
        spec = record.spec.from_kv(launch.spec)  # type: ignore[attr-defined]
        fault = faults.get(launch.family, "")
        kernel = record.build(spec, plan.arch, _fault=fault) if fault else record.build(spec, plan.arch)  # type: ignore[attr-defined]
        run(kernel, arch=plan.arch, grid=launch.grid, block=launch.block, args=args, check_races=True)
        if timings is not None:
            timings[launch.family] = time.perf_counter() - start
    return ws


@dataclass(frozen=True)
class Case:
    """One backward problem: per-sequence lengths (batched: all equal), heads, and the batched
    layout ("bshd" contiguous, "bhsd" through the strides); strides, when given, are the problem's
    own stride fields (name, elements), which override the layout's."""

    seqlens_q: tuple[int, ...]
    seqlens_k: tuple[int, ...]
    heads_q: int
    heads_kv: int
    layout: str = "bshd"
    strides: tuple[tuple[str, int], ...] = ()


def problem_of(seq_mode: str, head_dim: int, arch: str, case: Case) -> dict[str, object]:
    """The plan's problem for a case (contiguous, or [B, H, S, D] strides for layout bhsd)."""
    batch = len(case.seqlens_q)
    problem: dict[str, object] = {"arch": arch, "heads_q": case.heads_q, "heads_kv": case.heads_kv, "batch": batch}
    if seq_mode == "varlen":
        problem.update(max_seqlen_q=max(case.seqlens_q), max_seqlen_k=max(case.seqlens_k),
                       total_q=sum(case.seqlens_q), total_k=sum(case.seqlens_k))
        return {**problem, **dict(case.strides)}
    s_q, s_k = case.seqlens_q[0], case.seqlens_k[0]
    problem.update(seqlen_q=s_q, seqlen_k=s_k)
    if case.layout == "bhsd":
        for t in ("q", "k", "v", "o", "do", "dq", "dk", "dv"):
            s, h = (s_k, case.heads_kv) if kv_tensor(t) else (s_q, case.heads_q)
            problem.update({f"{t}_stride_b": h * s * head_dim, f"{t}_stride_s": head_dim,
                            f"{t}_stride_h": s * head_dim})
    return {**problem, **dict(case.strides)}


def _views(flat: np.ndarray, plan_sizes: Mapping[str, int | float], seq_mode: str, tensor: str,
           seqlens: tuple[int, ...], heads: int, d: int) -> list[np.ndarray]:
    """Per-sequence [S, H, D] views of a flat user buffer through the plan's strides."""
    item = flat.itemsize
    ss, sh = int(plan_sizes[f"{tensor}_stride_s"]), int(plan_sizes[f"{tensor}_stride_h"])
    out, start = [], 0
    for b, s in enumerate(seqlens):
        offset = b * int(plan_sizes[f"{tensor}_stride_b"]) if seq_mode == "batched" else start * ss
        start += s
        if s == 0:
            out.append(np.zeros((0, heads, d), flat.dtype))
            continue
        out.append(np.lib.stride_tricks.as_strided(flat[offset:], (s, heads, d), (ss * item, sh * item, item)))
    return out


def run_case(specs: Mapping[str, object], arch: str, case: Case, *, mask: str, faults: Mapping[str, str] | None = None,
             hosts: Mapping[str, HostLaunch] | None = None, records: Mapping[str, object] | None = None,
             seed: int | None = None, timings: dict[str, float] | None = None) -> Comparison:
    """The whole backward of one case against the float64 reference (see the module docstring)."""
    prep = specs["attention_bwd_prep"]
    seq_mode, d, dtype_name = prep.seq_mode, prep.head_dim, prep.dtype  # type: ignore[attr-defined]
    dtype = NUMPY_DTYPES[dtype_name]
    problem = problem_of(seq_mode, d, arch, case)
    plan = plan_attention_bwd(problem, specs, records=records)
    sizes = dict(plan.problem)
    scale = float(sizes["scale"])
    rng = np.random.default_rng(sum(case.seqlens_q) * 1009 + sum(case.seqlens_k) * 31 + case.heads_q
                                if seed is None else seed)
    tensors: dict[str, np.ndarray] = {}
    views: dict[str, list[np.ndarray]] = {}
    info = dict(plan.tensors)
    for t in ("q", "k", "v", "o", "do", "dq", "dk", "dv"):
        elems = int(info[t]["bytes"]) // dtype.itemsize if t in info else 0  # type: ignore[call-overload]
        if t in ("q", "k", "do"):
            flat = rng.standard_normal(elems).astype(dtype)
        elif t == "v":
            flat = rng.uniform(-1.0, 1.0, elems).astype(dtype)
        else:
            flat = np.full(elems + (CANARY if t != "o" else 0), SENTINEL, dtype)
        tensors[t] = flat
        kv = kv_tensor(t)
        views[t] = _views(flat, sizes, seq_mode, t, case.seqlens_k if kv else case.seqlens_q,
                          case.heads_kv if kv else case.heads_q, d)
    refs = [backward(mask, np.array(q), np.array(k), np.array(v), np.array(do), float(np.float32(scale)))
            for q, k, v, do in zip(views["q"], views["k"], views["v"], views["do"], strict=True)]
    for view, ref in zip(views["o"], refs, strict=True):
        view[...] = ref.o.astype(dtype)
    # The gradients of the O the kernels read (its D; see backward_reference's docstring).
    refs = [backward(mask, np.array(q), np.array(k), np.array(v), np.array(do), float(np.float32(scale)), o_given=o)
            for q, k, v, do, o in zip(views["q"], views["k"], views["v"], views["do"], views["o"], strict=True)]
    lse_shape = (len(case.seqlens_q), case.heads_q, case.seqlens_q[0]) if seq_mode == "batched" \
        else (case.heads_q, sum(case.seqlens_q))
    lse = np.zeros(lse_shape, np.float32)
    start = 0
    for b, (ref, s) in enumerate(zip(refs, case.seqlens_q, strict=True)):
        if seq_mode == "batched":
            lse[b] = ref.lse
        else:
            lse[:, start:start + s] = ref.lse
        start += s
    tensors["lse"] = lse.reshape(-1)
    if seq_mode == "varlen":
        tensors["cu_seqlens_q"] = np.concatenate([[0], np.cumsum(case.seqlens_q)]).astype(np.int32)
        tensors["cu_seqlens_k"] = np.concatenate([[0], np.cumsum(case.seqlens_k)]).astype(np.int32)
    run_plan(plan, tensors, faults=faults, hosts=hosts, records=records, timings=timings)
    name = f"attention_bwd {dtype_name} {mask} {seq_mode}"
    count = sum(int(info[t]["bytes"]) for t in ("dq", "dk", "dv"))  # type: ignore[call-overload]
    for t in ("dq", "dk", "dv"):
        if np.any(tensors[t][-CANARY:].astype(np.float64) != SENTINEL):
            return Comparison(False, name, count, 1, math.inf, None, f"{name}: a canary past the end of {t} was "
                                                                      f"overwritten")
    texts, worst, ok = [], 0.0, True
    s_k = max(case.seqlens_k)
    for t in ("dq", "dk", "dv"):
        got = [np.asarray(x).astype(np.float64) for x in views[t]]
        want = [getattr(ref, t) for ref in refs]
        good, text, err = check_gradient(t, got, want, dtype_name, s_k)
        ok = ok and good
        texts.append(text)
        worst = max(worst, err)
    return Comparison(ok, name, count, 0 if ok else 1, worst, None, f"{name}: {'; '.join(texts)}")
