"""Launch contract of attention_bwd_main: grid (key blocks * chunks, query heads, batch), one
workgroup of waves * wave_size threads per block of block_n keys and chunk of d_chunk head_dim
columns (chunks = head_dim / d_chunk; x = key block * chunks + chunk).

Problem keys. batched: batch, seqlen_q, seqlen_k, heads_q, heads_kv; varlen: batch,
max_seqlen_k (sizes the grid), total_q, total_k, heads_q, heads_kv; optionally the strides
{q,k,v,do,dk,dv | dk_acc,dv_acc[,dq_acc]}_stride_{b,s,h} (varlen {s,h}) in elements (default: contiguous [B, S, H, D]
or [T, H, D]; dk, dv and the dkv_mode=atomic dk_acc, dv_acc with heads_kv heads; dq_acc and the
dkv_mode=split dk_acc, dv_acc with heads_q heads, the latter over the key rows). head_dim is the
spec's. Names follow the backward plan's conventions (kernels/attention/backward_plan.py).

Arguments, in order: q, k, v, do (inputs, the spec's dtype), lse2 and delta (f32 inputs from
attention_bwd_prep, batched [B, H_q, S_q], varlen [H_q, total_q]: LSE * log2(e) and rowsum(dO * O),
+inf and 0 for rows that see no key), dkv_mode=direct: dk, dv (outputs, the input dtype) /
dkv_mode=atomic: dk_acc, dv_acc (f32 workspaces [.., H_kv, D], role inout, accumulated by
atomics) / dkv_mode=split: dk_acc, dv_acc (f32 workspaces [.., H_q, D], role output: workgroup
(key block, query head, batch) stores its keys' rows of its query head's slice, once, by plain
stores), [dq_mode=atomic: dq_acc, the f32 dQ workspace (inout, atomics)], [varlen: cu_seqlens_q,
cu_seqlens_k (i32[B + 1])], scale (f32), the i32 sizes batch, seqlen_q, seqlen_k (varlen: batch,
total_q), heads_q, group = heads_q / heads_kv, then the strides of the same tensors in that order.
The atomic workspaces must hold zeros before the launch (zero_init; attention_bwd_prep fills
them); the split slices need none (every element of a key inside a sequence is written, rows
past the sequences are not read). dkv_mode=direct needs heads_q == heads_kv.
"""

from __future__ import annotations

from collections.abc import Mapping

from rocke.families.launch import KernelArg, LaunchContract, LaunchError, check_buffer
from rocke.helpers import ceil_div, elem_bytes

from ..common import launch as shared
from .builder import QUERY_SIDE, dkv_names, query_heads, tensors
from .spec import AttentionBwdMainSpec

BATCHED_KEYS = ("batch", "seqlen_q", "seqlen_k", "heads_q", "heads_kv")
VARLEN_KEYS = ("batch", "max_seqlen_k", "total_q", "total_k", "heads_q", "heads_kv")


def stride_keys(spec: AttentionBwdMainSpec) -> tuple[str, ...]:
    return shared.stride_keys(spec.seq_mode, tensors(spec))


def problem_keys(spec: AttentionBwdMainSpec) -> tuple[str, ...]:
    return BATCHED_KEYS if spec.seq_mode == "batched" else VARLEN_KEYS


def _sizes(spec: AttentionBwdMainSpec, problem: Mapping[str, int]) -> dict[str, int]:
    sizes = shared.problem_sizes(spec.FAMILY, spec.seq_mode, spec.head_dim, problem_keys(spec), tensors(spec),
                                 QUERY_SIDE, problem)
    if spec.dkv_mode == "direct" and sizes["heads_q"] != sizes["heads_kv"]:
        raise LaunchError(f"{spec.FAMILY}: dkv_mode=direct needs heads_q == heads_kv (got {sizes['heads_q']} and "
                          f"{sizes['heads_kv']}); GQA / MQA sum the query heads with dkv_mode=atomic or split")
    if spec.dkv_mode == "split":
        # The split slices have the key rows but one head per query head: their contiguous
        # strides are those of a key-side tensor with heads_q heads.
        wide = {**sizes, "heads_kv": sizes["heads_q"]}
        given = set(problem)
        for key, value in shared.default_strides(spec.seq_mode, spec.head_dim, dkv_names(spec), QUERY_SIDE,
                                                 wide).items():
            if key not in given:
                sizes[key] = value
    return sizes


def tensor_elems(spec: AttentionBwdMainSpec, sizes: Mapping[str, int], tensor: str) -> int:
    """Elements a tensor's buffer must hold: one past its last element."""
    if query_heads(spec, tensor) and tensor not in QUERY_SIDE:
        wide = {**sizes, "heads_kv": sizes["heads_q"]}
        return shared.tensor_elems(spec.seq_mode, spec.head_dim, wide, tensor, False)
    return shared.tensor_elems(spec.seq_mode, spec.head_dim, sizes, tensor, tensor in QUERY_SIDE)


def launch(spec: AttentionBwdMainSpec, problem: Mapping[str, int]) -> LaunchContract:
    """Contract for one problem (see the module docstring)."""
    fam = spec.FAMILY
    sizes = _sizes(spec, problem)
    esize = elem_bytes(spec.dtype)
    in_type = f"ptr<{spec.dtype}, global>"
    args = [KernelArg(t, in_type, "input", check_buffer(fam, t, tensor_elems(spec, sizes, t) * esize))
            for t in ("q", "k", "v", "do")]
    stats = shared.stat_elems(spec.seq_mode, sizes)
    args += [KernelArg(t, "ptr<f32, global>", "input", check_buffer(fam, t, stats * 4)) for t in ("lse2", "delta")]
    zero: list[str] = []
    for t in dkv_names(spec):
        if spec.dkv_mode == "direct":
            args.append(KernelArg(t, in_type, "output", check_buffer(fam, t, tensor_elems(spec, sizes, t) * esize)))
        elif spec.dkv_mode == "split":
            args.append(KernelArg(t, "ptr<f32, global>", "output",
                                  check_buffer(fam, t, tensor_elems(spec, sizes, t) * 4)))
        else:
            args.append(KernelArg(t, "ptr<f32, global>", "inout",
                                  check_buffer(fam, t, tensor_elems(spec, sizes, t) * 4)))
            zero.append(t)
    if spec.dq_mode == "atomic":
        args.append(KernelArg("dq_acc", "ptr<f32, global>", "inout",
                              check_buffer(fam, "dq_acc", tensor_elems(spec, sizes, "dq_acc") * 4)))
        zero.append("dq_acc")
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
    rows = sizes["seqlen_k"] if spec.seq_mode == "batched" else sizes["max_seqlen_k"]
    grid = (max(1, ceil_div(rows, spec.block_n)) * spec.chunks, sizes["heads_q"], sizes["batch"])
    return LaunchContract(fam, spec.kernel_name(), spec.to_kv(), tuple(sorted(sizes.items())), tuple(args), grid,
                          (spec.threads, 1, 1), zero_init=tuple(zero))
