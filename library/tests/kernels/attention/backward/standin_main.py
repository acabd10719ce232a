"""A host stand-in of attention_bwd_main for the backward's end-to-end tests (tests only): it
follows the plan's conventions (reads q, k, v, do, lse2 and delta; adds dQ into dq_acc, dK and dV
into dk_acc / dv_acc as dkv_mode says, or writes dk, dv directly) in float64 numpy, so the plan,
prep and convert run end to end against the float64 reference while the main kernel is not there.

It recomputes P = exp2(S * scale * log2(e) - LSE2) from the workspace's LSE2, and dS = P (dP - D)
from its D: a prep that leaves LSE2 in natural-log units or D = 0 makes the end-to-end check fail.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from rocke.families import Family
from rocke.families.launch import KernelArg, LaunchContract
from rocke.families.spec import Spec
from rocke_library.kernels.attention.attention_fwd.reference import NUMPY_DTYPES
from rocke_library.kernels.attention.backward_plan import BackwardPlan, kv_tensor
from rocke_library.kernels.attention.common.backward_reference import sees


@dataclass(frozen=True)
class StandInMainSpec(Spec):
    """The fields the plan reads from a main spec."""

    FAMILY = "attention_bwd_main"

    dkv_mode: str
    dq_mode: str
    dtype: str
    head_dim: int
    mask: str
    seq_mode: str


def standin_launch(spec: StandInMainSpec, problem: Mapping[str, int]) -> LaunchContract:
    """The stand-in's arguments, named by the plan's conventions (bytes 0: the plan sizes buffers)."""
    names = ["q", "k", "v", "do", "lse2", "delta"]
    if spec.dq_mode == "atomic":
        names.append("dq_acc")
    names += ["dk", "dv"] if spec.dkv_mode == "direct" else ["dk_acc", "dv_acc"]
    if spec.seq_mode == "varlen":
        names += ["cu_seqlens_q", "cu_seqlens_k"]
    args = [KernelArg(name, "ptr", "input") for name in names] + [KernelArg("scale", "f32", "scalar")]
    return LaunchContract(spec.FAMILY, spec.kernel_name(), spec.to_kv(), tuple(sorted(problem.items())), tuple(args),
                          (1, 1, 1), (64, 1, 1))


def records(real: Mapping[str, Family]) -> dict[str, object]:
    """The library's family records with the stand-in as attention_bwd_main."""
    out: dict[str, object] = dict(real)
    out["attention_bwd_main"] = Family("attention_bwd_main", "tests", spec=StandInMainSpec, launch=standin_launch)
    return out


def _seq(sizes: Mapping[str, int | float], named: Mapping[str, object], b: int, kv: bool) -> tuple[int, int]:
    """(first token, length) of sequence b on the query or key side."""
    side = "k" if kv else "q"
    if "seqlen_q" in sizes:
        return 0, int(sizes[f"seqlen_{side}"])
    cu = np.asarray(named[f"cu_seqlens_{side}"])
    return int(cu[b]), int(cu[b + 1] - cu[b])


def host_main(plan: BackwardPlan, named: dict[str, object], tensors: Mapping[str, np.ndarray], ws: np.ndarray) -> None:
    """Run the stand-in: per sequence and query head, the main kernel's formulas in float64."""
    launch = next(x for x in plan.launches if x.family == "attention_bwd_main")
    spec = StandInMainSpec.from_kv(launch.spec)
    sizes = dict(plan.problem)
    d = spec.head_dim
    batched = spec.seq_mode == "batched"
    h_q, h_kv = int(sizes["heads_q"]), int(sizes["heads_kv"])
    group = h_q // h_kv
    scale = float(np.float32(named["scale"]))  # type: ignore[arg-type]
    dtype = NUMPY_DTYPES[spec.dtype]

    def rows(t: str, b: int) -> np.ndarray:
        """Element index [S, H, D] of sequence b of user tensor t."""
        start, length = _seq(sizes, named, b, kv_tensor(t))
        base = b * int(sizes[f"{t}_stride_b"]) if batched else start * int(sizes[f"{t}_stride_s"])
        heads = h_kv if kv_tensor(t) else h_q
        s = np.arange(length)[:, None, None] * int(sizes[f"{t}_stride_s"])
        h = np.arange(heads)[None, :, None] * int(sizes[f"{t}_stride_h"])
        return base + s + h + np.arange(d)[None, None, :]

    lse2 = np.asarray(named["lse2"])
    delta = np.asarray(named["delta"])
    for b in range(int(sizes["batch"])):
        q_start, s_q = _seq(sizes, named, b, False)
        k_start, s_k = _seq(sizes, named, b, True)
        k_tok = b * s_k + np.arange(s_k) if batched else k_start + np.arange(s_k)
        if s_q == 0 and spec.dkv_mode == "split":  # the kernel stores zeros: the slices are not zeroed
            for name in ("dk", "dv"):
                np.asarray(named[f"{name}_acc"]).reshape(-1, h_q, d)[k_tok] = 0.0
        if s_q == 0 or s_k == 0:
            continue
        q, k, v, do = (tensors[t][rows(t, b)].astype(np.float64) for t in ("q", "k", "v", "do"))
        seen = sees(spec.mask, s_q, s_k)
        for h in range(h_q):
            g = h // group
            stat = (b * h_q + h) * s_q + np.arange(s_q) if batched else h * int(sizes["total_q"]) + q_start + \
                np.arange(s_q)
            x = (q[:, h] @ k[:, g].T) * scale * (1.0 / math.log(2.0)) - lse2[stat].astype(np.float64)[:, None]
            with np.errstate(invalid="ignore", over="ignore"):
                p = np.where(seen, np.exp2(x), 0.0)
            ds = p * (do[:, h] @ v[:, g].T - delta[stat].astype(np.float64)[:, None])
            dq, dk, dv = scale * (ds @ k[:, g]), scale * (ds.T @ q[:, h]), p.T @ do[:, h]
            if spec.dq_mode == "atomic":
                acc = np.asarray(named["dq_acc"]).reshape(-1, h_q, d)
                tok = b * s_q + np.arange(s_q) if batched else q_start + np.arange(s_q)
                acc[tok, h] += dq.astype(np.float32)
            for name, value in (("dk", dk), ("dv", dv)):
                if spec.dkv_mode == "direct":
                    tensors[name][rows(name, b)[:, g]] = value.astype(dtype)
                elif spec.dkv_mode == "split":  # one slice per query head, stored once
                    np.asarray(named[f"{name}_acc"]).reshape(-1, h_q, d)[k_tok, h] = value.astype(np.float32)
                else:
                    acc = np.asarray(named[f"{name}_acc"]).reshape(-1, h_kv, d)
                    acc[k_tok, g] += value.astype(np.float32)
    del ws
