"""A problem planned by dispatch and run on the simulator against its float64 reference: what
`rocke sim KIND --problem 'k=v ...' --arch A` runs (the planner's `simulate`), for every kind.

The plan is followed as a host would follow it: conv_fwd, conv_dgrad, conv_wgrad and
attention_fwd through `execute` (the launches in order, each through its contract, the workspace
and zero-fills the plan lists), compared with the planned family's reference and tolerance (the
ones its numeric tests use); attention_bwd through kernels/attention/backward_sim.run_plan (the
launch set and its shared workspace), against the float64 backward. Inputs are random from the
seed; outputs start as a canary value, so an element no launch writes fails. Varlen problems
give only the totals and the longest sequence, so the sequences are filled in order: each takes
the longest length until the total runs out, the rest are empty (a zero-length sequence is legal
and worth running).
"""

from __future__ import annotations

import math
from typing import Any

import ml_dtypes
import numpy as np

from rocke.sim import Comparison, compare
from rocke_library.families import defined
from rocke_library.kernels.attention.attention_fwd import numerics as attention_fwd_numerics
from rocke_library.kernels.attention.attention_fwd.reference import reference as attention_fwd_reference
from rocke_library.kernels.attention.backward_sim import Case, run_case
from rocke_library.kernels.conv.conv_direct_fwd.numerics import TOL as DIRECT_FWD_TOL
from rocke_library.kernels.conv.conv_igemm_dgrad.numerics import TOL as IGEMM_DGRAD_TOL
from rocke_library.kernels.conv.conv_igemm_fwd.numerics import TOL as IGEMM_FWD_TOL
from rocke_library.kernels.conv.conv_igemm_wgrad.numerics import TOL as IGEMM_WGRAD_TOL

from .attention_bwd import FAMILIES, AttentionBwdProblem
from .attention_fwd import AttentionFwdProblem
from .dispatch import KINDS, plan
from .execute import execute

USER_TENSORS = ("q", "k", "v", "o", "do", "dq", "dk", "dv")  # the caller's buffers (not the workspace's)


def varlen_lengths(batch: int, total: int, longest: int) -> tuple[int, ...]:
    """batch sequence lengths summing to total, none over longest: filled in order."""
    if total > batch * longest:
        raise ValueError(f"total {total} exceeds batch {batch} sequences of at most {longest} tokens")
    lengths = []
    for _ in range(batch):
        take = min(longest, total)
        lengths.append(take)
        total -= take
    return tuple(lengths)


def planned(kind: str, text: str, arch: str):
    """The dispatch plan of a problem; ValueError when it is not planned (nothing to simulate)."""
    result = plan(kind, text, arch)
    if result.status != "planned" or not result.launches:
        detail = "dead: its outputs are empty" if result.status == "dead" else result.to_text().strip()
        raise ValueError(f"{kind} [{text}] on {arch} has no launch to simulate ({detail})")
    return result


def simulate_attention_bwd(text: str, arch: str, seed: int) -> Comparison:
    """The attention backward of a problem: its planned launch set on the simulator, dQ, dK and dV
    each checked against the float64 backward (backward_sim.run_case)."""
    result = planned("attention_bwd", text, arch)
    specs = {launch.family: FAMILIES[launch.family].spec.from_kv(launch.spec) for launch in result.launches}
    problem = AttentionBwdProblem.from_kv(result.problem)
    strides: dict[str, int] = {}
    for launch in result.launches:  # each launch's contract names the strides of the tensors it binds
        strides.update({key: int(value) for key, value in dict(launch.contract.problem).items()
                        if "_stride_" in key and key.partition("_stride_")[0] in USER_TENSORS})
    heads, layout = (problem.heads_q, problem.heads_kv), tuple(sorted(strides.items()))
    if problem.seq_mode == "varlen":
        case = Case(varlen_lengths(problem.batch, problem.total_q, problem.seqlen_q),
                    varlen_lengths(problem.batch, problem.total_k, problem.seqlen_k), *heads, strides=layout)
    else:
        case = Case((problem.seqlen_q,) * problem.batch, (problem.seqlen_k,) * problem.batch, *heads, strides=layout)
    return run_case(specs, arch, case, mask=specs["attention_bwd_main"].mask, seed=seed)  # type: ignore[attr-defined]


NUMPY_DTYPES = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16), "f32": np.dtype(np.float32),
                "f64": np.dtype(np.float64)}
CONV_TOL = {"conv_direct_fwd": DIRECT_FWD_TOL, "conv_igemm_fwd": IGEMM_FWD_TOL, "conv_igemm_dgrad": IGEMM_DGRAD_TOL,
            "conv_igemm_wgrad": IGEMM_WGRAD_TOL}  # (rtol, atol) by dtype: each family's numeric tests'
CONV_OUTPUT = {"conv_fwd": "output", "conv_dgrad": "dx", "conv_wgrad": "dw"}
CANARY = 1000.0  # an output's first value; |out| stays far below it at these inputs


def _tolerance(table: dict[str, dict[str, tuple[float, float]]], family: str, dtype: str) -> tuple[float, float]:
    if dtype not in table.get(family, {}):
        raise ValueError(f"{family} has no numeric tolerance for {dtype} (it has {', '.join(table.get(family, {}))})")
    return table[family][dtype]


def simulate_conv(kind: str, text: str, arch: str, seed: int) -> Comparison:
    """A convolution problem (conv_fwd, conv_dgrad, conv_wgrad): its plan executed on the simulator
    (every launch, split-K's workspace and zero-fill included), the output compared with the
    planned family's float64 reference."""
    result = planned(kind, text, arch)
    first = result.launches[0]
    family = {f.name: f for f in defined()}[first.family]
    spec = family.spec.from_kv(first.spec)
    problem: Any = KINDS[kind].from_kv(result.problem)
    n, h, w, c, k, g = problem.n, problem.h, problem.w, problem.c, problem.k, problem.g
    ho, wo = problem.output_hw()
    dtype = NUMPY_DTYPES[problem.dtype]
    rtol, atol = _tolerance(CONV_TOL, first.family, problem.dtype)
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1.0, 1.0, (n, h, w, c)).astype(dtype)
    wt = rng.uniform(-1.0, 1.0, (k, problem.filter_y, problem.filter_x, c // g)).astype(dtype)
    dy = rng.uniform(-1.0, 1.0, (n, ho, wo, k)).astype(dtype)
    bias = rng.uniform(-1.0, 1.0, k).astype(dtype)
    out = CONV_OUTPUT[kind]
    want = family.reference(spec, {"input": x, "weight": wt, "dy": dy, "bias": bias, "g": g, "h": h, "w": w})[out]
    got = np.full(want.size, CANARY, dtype)
    execute(result, {"input": x.reshape(-1), "weight": wt.reshape(-1), "dy": dy.reshape(-1), "bias": bias, out: got},
            check_races=False)
    return compare(got.reshape(want.shape), want, rtol=rtol, atol=atol, name=f"{kind} {out} ({first.family})")


def simulate_attention_fwd(text: str, arch: str, seed: int) -> Comparison:
    """An attention forward problem: its plan executed on the simulator, O and LSE compared with the
    float64 reference by the family's rule (attention_fwd.numerics.compare_outputs: tolerances,
    rows that see no key O = 0 and LSE = -inf, canaries past the ends)."""
    result = planned("attention_fwd", text, arch)
    launch = result.launches[0]
    problem = AttentionFwdProblem.from_kv(result.problem)
    fam_spec = {f.name: f for f in defined()}[launch.family].spec.from_kv(launch.spec)
    sizes = dict(launch.contract.problem)
    if problem.seq_mode == "varlen":
        seqlens_q = varlen_lengths(problem.batch, problem.total_q, problem.seqlen_q)
        seqlens_k = varlen_lengths(problem.batch, problem.total_k, problem.seqlen_k)
    else:
        seqlens_q, seqlens_k = (problem.seqlen_q,) * problem.batch, (problem.seqlen_k,) * problem.batch
    case = attention_fwd_numerics.Case(seqlens_q, seqlens_k, problem.heads_q, problem.heads_kv)
    dtype, d = NUMPY_DTYPES[problem.dtype], problem.head_dim
    rng = np.random.default_rng(seed)
    buffers, views = {}, {}
    for tensor in ("q", "k", "v", "o"):
        elems = launch.contract.arg(tensor).bytes // dtype.itemsize
        rows, heads = (seqlens_k, problem.heads_kv) if tensor in ("k", "v") else (seqlens_q, problem.heads_q)
        flat = (np.full(elems + attention_fwd_numerics.CANARY, attention_fwd_numerics.SENTINEL, dtype) if tensor == "o"
                else rng.standard_normal(elems).astype(dtype))
        buffers[tensor] = flat
        views[tensor] = attention_fwd_numerics._view(flat, problem.seq_mode, sizes, tensor, rows, heads, d)
    lse_elems = launch.contract.arg("lse").bytes // 4
    lse = np.full(lse_elems + attention_fwd_numerics.CANARY, attention_fwd_numerics.SENTINEL, np.float32)
    scale = 1.0 / math.sqrt(d)
    given: dict[str, Any] = {**buffers, "lse": lse, "scale": scale}
    if problem.seq_mode == "varlen":
        given["cu_seqlens_q"] = np.concatenate([[0], np.cumsum(seqlens_q)]).astype(np.int32)
        given["cu_seqlens_k"] = np.concatenate([[0], np.cumsum(seqlens_k)]).astype(np.int32)
    execute(result, given, check_races=False)
    want = attention_fwd_reference(fam_spec, {"q": [np.array(x) for x in views["q"]],
                                              "k": [np.array(x) for x in views["k"]],
                                              "v": [np.array(x) for x in views["v"]],
                                              "scale": float(np.float32(scale))})
    got_lse, start = [], 0
    for b, s in enumerate(seqlens_q):
        if problem.seq_mode == "batched":
            got_lse.append(lse[b * problem.heads_q * s:(b + 1) * problem.heads_q * s].reshape(problem.heads_q, s))
        else:
            got_lse.append(lse[:lse_elems].reshape(problem.heads_q, problem.total_q)[:, start:start + s])
        start += s
    return attention_fwd_numerics.compare_outputs(
        "attention_fwd O, LSE", fam_spec, views["o"], got_lse, want["o"], want["lse"], case, buffers["o"], lse,
        launch.contract.arg("o").bytes // dtype.itemsize, lse_elems)


def _conv(kind: str):
    def run(text: str, arch: str, seed: int) -> Comparison:
        return simulate_conv(kind, text, arch, seed)

    run.__name__ = f"simulate_{kind}"
    return run


SIMULATED = {
    "attention_bwd": simulate_attention_bwd,
    "attention_fwd": simulate_attention_fwd,
    "conv_dgrad": _conv("conv_dgrad"),
    "conv_fwd": _conv("conv_fwd"),
    "conv_wgrad": _conv("conv_wgrad"),
}
