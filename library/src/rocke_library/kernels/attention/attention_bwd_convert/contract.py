"""Launch contract of attention_bwd_convert: grid (ceil(rows * head_dim / vec / block), 1, 1) with
rows the most rows of the outputs converted (dq: batch * seqlen_q * heads_q or total_q * heads_q;
dk, dv: batch * seqlen_k * heads_kv or total_k * heads_kv), one workgroup of `block` threads.

Problem keys. batched: batch, seqlen_q, seqlen_k, heads_q, heads_kv, optionally the strides
{dq,dk,dv}_stride_{b,s,h} of the outputs converted (elements; default contiguous [B, S, H, D]);
varlen: total_q, total_k, heads_q, heads_kv, optionally {dq,dk,dv}_stride_{s,h} (default
[T, H, D]). head_dim is the spec's.

Arguments, in order: the f32 workspaces of the outputs converted (dq_acc; dk_acc, dv_acc), the
outputs (dq; dk, dv; input dtype), then the i32 sizes batch, seqlen_q, seqlen_k (varlen: total_q,
total_k), heads_q, heads_kv, group = heads_q / heads_kv, then the strides of each output. Workspace
shapes: dq_acc [.., H_q, D]; dk_acc, dv_acc [.., H_kv, D] (dkv_mode=atomic) or [.., H_q, D]
(dkv_mode=split), contiguous.
"""

from __future__ import annotations

from collections.abc import Mapping

from rocke.families.launch import KernelArg, LaunchContract, LaunchError, check_buffer
from rocke.helpers import ceil_div, elem_bytes

from .builder import F32_BYTES
from .spec import AttentionBwdConvertSpec

BATCHED_KEYS = ("batch", "seqlen_q", "seqlen_k", "heads_q", "heads_kv")
VARLEN_KEYS = ("total_q", "total_k", "heads_q", "heads_kv")


def problem_keys(spec: AttentionBwdConvertSpec) -> tuple[str, ...]:
    return BATCHED_KEYS if spec.seq_mode == "batched" else VARLEN_KEYS


def stride_keys(spec: AttentionBwdConvertSpec) -> tuple[str, ...]:
    dims = ("b", "s", "h") if spec.seq_mode == "batched" else ("s", "h")
    return tuple(f"{t}_stride_{d}" for t in spec.tensors for d in dims)


def _sizes(spec: AttentionBwdConvertSpec, problem: Mapping[str, int]) -> dict[str, int]:
    fam = spec.FAMILY
    keys, strides = problem_keys(spec), stride_keys(spec)
    unknown = sorted(k for k in problem if k not in keys and k not in strides)
    missing = [k for k in keys if k not in problem]
    if unknown or missing:
        raise LaunchError(f"{fam}: the problem needs the sizes {', '.join(keys)} (and optionally the strides "
                          f"{', '.join(strides)}); unknown: {', '.join(unknown) or 'none'}, missing: "
                          f"{', '.join(missing) or 'none'}")
    sizes: dict[str, int] = {}
    for key in (*keys, *strides):
        if key not in problem:
            continue
        value = problem[key]
        smallest = 0 if key in ("seqlen_q", "seqlen_k", "total_q", "total_k") else 1
        if isinstance(value, bool) or not isinstance(value, int) or value < smallest:
            raise LaunchError(f"{fam}: problem size {key} must be an int >= {smallest}")
        sizes[key] = value
    if sizes["heads_q"] % sizes["heads_kv"] != 0:
        raise LaunchError(f"{fam}: heads_q={sizes['heads_q']} is not a multiple of heads_kv={sizes['heads_kv']}")
    d = spec.head_dim
    for tensor in spec.tensors:
        q_side = tensor == "dq"
        heads = sizes["heads_q"] if q_side else sizes["heads_kv"]
        sizes.setdefault(f"{tensor}_stride_h", d)
        sizes.setdefault(f"{tensor}_stride_s", heads * d)
        if spec.seq_mode == "batched":
            # a tensor of no rows is never addressed: one row's stride (>= 1, as a contract takes it back)
            seqlen = max(sizes["seqlen_q"] if q_side else sizes["seqlen_k"], 1)
            sizes.setdefault(f"{tensor}_stride_b", seqlen * heads * d)
        if sizes[f"{tensor}_stride_s"] < d and sizes[f"{tensor}_stride_h"] < d:
            raise LaunchError(f"{fam}: the {tensor} strides overlap the head_dim={d} contiguous elements")
    return sizes


def tokens(spec: AttentionBwdConvertSpec, sizes: Mapping[str, int], tensor: str) -> int:
    """Tokens (rows per head) of an output: batch * seqlen or total."""
    side = "q" if tensor == "dq" else "k"
    if spec.seq_mode == "batched":
        return sizes["batch"] * sizes[f"seqlen_{side}"]
    return sizes[f"total_{side}"]


def heads(spec: AttentionBwdConvertSpec, sizes: Mapping[str, int], tensor: str, workspace: bool) -> int:
    """Heads of an output, or of its workspace (dkv_mode=split keeps one slice per query head)."""
    if tensor == "dq" or (workspace and spec.dkv_mode == "split"):
        return sizes["heads_q"]
    return sizes["heads_kv"]


def tensor_elems(spec: AttentionBwdConvertSpec, sizes: Mapping[str, int], tensor: str) -> int:
    """Elements an output's buffer must hold: one past its last element."""
    side = "q" if tensor == "dq" else "k"
    rows = sizes[f"seqlen_{side}"] if spec.seq_mode == "batched" else sizes[f"total_{side}"]
    if rows == 0:
        return 0
    outer = (sizes["batch"] - 1) * sizes[f"{tensor}_stride_b"] if spec.seq_mode == "batched" else 0
    return outer + (rows - 1) * sizes[f"{tensor}_stride_s"] + \
        (heads(spec, sizes, tensor, False) - 1) * sizes[f"{tensor}_stride_h"] + spec.head_dim


def launch(spec: AttentionBwdConvertSpec, problem: Mapping[str, int]) -> LaunchContract:
    """Contract for one problem (see the module docstring)."""
    fam = spec.FAMILY
    sizes = _sizes(spec, problem)
    esize = elem_bytes(spec.dtype)
    d = spec.head_dim
    args = []
    for tensor in spec.tensors:
        ws = tokens(spec, sizes, tensor) * heads(spec, sizes, tensor, True) * d * F32_BYTES
        args.append(KernelArg(f"{tensor}_acc", "ptr<f32, global>", "input", check_buffer(fam, f"{tensor}_acc", ws)))
    for tensor in spec.tensors:
        args.append(KernelArg(tensor, f"ptr<{spec.dtype}, global>", "output",
                              check_buffer(fam, tensor, tensor_elems(spec, sizes, tensor) * esize)))
    names = ("batch", "seqlen_q", "seqlen_k") if spec.seq_mode == "batched" else ("total_q", "total_k")
    values = {name: sizes[name] for name in (*names, "heads_q", "heads_kv")}
    values["group"] = sizes["heads_q"] // sizes["heads_kv"]
    args += [KernelArg(name, "i32", "scalar", value=value) for name, value in values.items()]
    args += [KernelArg(key, "i32", "scalar", value=sizes[key]) for key in stride_keys(spec)]
    rows = max(tokens(spec, sizes, t) * heads(spec, sizes, t, False) for t in spec.tensors)
    grid = (max(1, ceil_div(rows * (d // spec.vec), spec.block)), 1, 1)
    return LaunchContract(fam, spec.kernel_name(), spec.to_kv(), tuple(sorted(sizes.items())), tuple(args), grid,
                          (spec.block, 1, 1))
