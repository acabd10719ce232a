"""Launch contract of attention_bwd_dq: grid (query blocks, query heads, batch), one workgroup of
waves * wave_size threads per block of block_m query rows.

Problem keys. batched: batch, seqlen_q, seqlen_k, heads_q, heads_kv; varlen: batch,
max_seqlen_q (sizes the grid), total_q, total_k, heads_q, heads_kv; optionally the strides
{q,k,v,do,dq}_stride_{b,s,h} (varlen {s,h}) in elements (default: contiguous [B, S, H, D] or
[T, H, D]). head_dim is the spec's.

Arguments, in order: q, k, v, do (inputs, the spec's dtype), lse2 and delta (f32 inputs from
attention_bwd_prep, batched [B, H_q, S_q], varlen [H_q, total_q]), dq (output, the input dtype,
written once), [varlen: cu_seqlens_q, cu_seqlens_k (i32[B + 1])], scale (f32), the i32 sizes
batch, seqlen_q, seqlen_k (varlen: batch, total_q), heads_q, group = heads_q / heads_kv, then the
strides of q, k, v, do, dq. Nothing needs zeroing.
"""

from __future__ import annotations

from collections.abc import Mapping

from rocke.families.launch import KernelArg, LaunchContract, check_buffer
from rocke.helpers import ceil_div, elem_bytes

from ..common import launch as shared
from .builder import TENSORS
from .spec import AttentionBwdDqSpec

BATCHED_KEYS = ("batch", "seqlen_q", "seqlen_k", "heads_q", "heads_kv")
VARLEN_KEYS = ("batch", "max_seqlen_q", "total_q", "total_k", "heads_q", "heads_kv")
QUERY_SIDE = ("q", "do", "dq")


def stride_keys(spec: AttentionBwdDqSpec) -> tuple[str, ...]:
    return shared.stride_keys(spec.seq_mode, TENSORS)


def problem_keys(spec: AttentionBwdDqSpec) -> tuple[str, ...]:
    return BATCHED_KEYS if spec.seq_mode == "batched" else VARLEN_KEYS


def tensor_elems(spec: AttentionBwdDqSpec, sizes: Mapping[str, int], tensor: str) -> int:
    """Elements a tensor's buffer must hold: one past its last element."""
    return shared.tensor_elems(spec.seq_mode, spec.head_dim, sizes, tensor, tensor in QUERY_SIDE)


def launch(spec: AttentionBwdDqSpec, problem: Mapping[str, int]) -> LaunchContract:
    """Contract for one problem (see the module docstring)."""
    fam = spec.FAMILY
    sizes = shared.problem_sizes(fam, spec.seq_mode, spec.head_dim, problem_keys(spec), TENSORS, QUERY_SIDE, problem)
    esize = elem_bytes(spec.dtype)
    in_type = f"ptr<{spec.dtype}, global>"
    args = [KernelArg(t, in_type, "input", check_buffer(fam, t, tensor_elems(spec, sizes, t) * esize))
            for t in ("q", "k", "v", "do")]
    stats = shared.stat_elems(spec.seq_mode, sizes)
    args += [KernelArg(t, "ptr<f32, global>", "input", check_buffer(fam, t, stats * 4)) for t in ("lse2", "delta")]
    args.append(KernelArg("dq", in_type, "output", check_buffer(fam, "dq", tensor_elems(spec, sizes, "dq") * esize)))
    if spec.seq_mode == "varlen":
        for name in ("cu_seqlens_q", "cu_seqlens_k"):
            args.append(KernelArg(name, "ptr<i32, global>", "input", check_buffer(fam, name, (sizes["batch"] + 1) * 4)))
    args.append(KernelArg("scale", "f32", "scalar"))
    scalars = ["batch", "seqlen_q", "seqlen_k"] if spec.seq_mode == "batched" else ["batch", "total_q"]
    values = {name: sizes[name] for name in scalars}
    values["heads_q"] = sizes["heads_q"]
    values["group"] = sizes["heads_q"] // sizes["heads_kv"]
    args += [KernelArg(name, "i32", "scalar", value=value) for name, value in values.items()]
    args += [KernelArg(key, "i32", "scalar", value=sizes[key]) for key in stride_keys(spec)]
    rows = sizes["seqlen_q"] if spec.seq_mode == "batched" else sizes["max_seqlen_q"]
    grid = (max(1, ceil_div(rows, spec.block_m)), sizes["heads_q"], sizes["batch"])
    return LaunchContract(fam, spec.kernel_name(), spec.to_kv(), tuple(sorted(sizes.items())), tuple(args), grid,
                          (spec.threads, 1, 1))
