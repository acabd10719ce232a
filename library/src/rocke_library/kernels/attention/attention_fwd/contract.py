"""Launch contract of attention_fwd: grid (query blocks, query heads, batch), one workgroup of
waves * wave_size threads per block of block_m query rows.

Problem keys. batched: batch, seqlen_q, seqlen_k, heads_q, heads_kv, optionally the strides
{q,k,v,o}_stride_{b,s,h} in elements (default: contiguous [B, S, H, D]). varlen: batch,
max_seqlen_q (sizes the grid), total_q, total_k, heads_q, heads_kv, optionally the strides
{q,k,v,o}_stride_{s,h} (default: contiguous [T, H, D]). head_dim is the spec's.

Arguments, in order: q, k, v (inputs), o (output, like q), lse (f32 output: batched
[B, H_q, S_q], varlen [H_q, total_q]), [varlen: cu_seqlens_q, cu_seqlens_k (i32[B + 1])], scale
(f32, the caller's; usually 1 / sqrt(head_dim)), then the i32 sizes batch, seqlen_q, seqlen_k
(varlen: batch, total_q), heads_q, group = heads_q / heads_kv, then the strides of q, k, v, o.
"""

from __future__ import annotations

from collections.abc import Mapping

from rocke.families.launch import KernelArg, LaunchContract, LaunchError, check_buffer, check_size
from rocke.helpers import ceil_div, elem_bytes

from .builder import TENSORS
from .spec import AttentionFwdSpec

BATCHED_KEYS = ("batch", "seqlen_q", "seqlen_k", "heads_q", "heads_kv")
VARLEN_KEYS = ("batch", "max_seqlen_q", "total_q", "total_k", "heads_q", "heads_kv")


def stride_keys(spec: AttentionFwdSpec) -> tuple[str, ...]:
    dims = ("b", "s", "h") if spec.seq_mode == "batched" else ("s", "h")
    return tuple(f"{t}_stride_{d}" for t in TENSORS for d in dims)


def problem_keys(spec: AttentionFwdSpec) -> tuple[str, ...]:
    return BATCHED_KEYS if spec.seq_mode == "batched" else VARLEN_KEYS


def default_strides(spec: AttentionFwdSpec, problem: Mapping[str, int]) -> dict[str, int]:
    """Contiguous [B, S, H, D] (batched) or [T, H, D] (varlen) strides."""
    d = spec.head_dim
    out = {}
    for tensor in TENSORS:
        heads = problem["heads_kv"] if tensor in ("k", "v") else problem["heads_q"]
        out[f"{tensor}_stride_h"] = d
        out[f"{tensor}_stride_s"] = heads * d
        if spec.seq_mode == "batched":
            # a tensor of no rows is never addressed: one row's stride (>= 1, as a contract takes it back)
            seqlen = max(problem["seqlen_k"] if tensor in ("k", "v") else problem["seqlen_q"], 1)
            out[f"{tensor}_stride_b"] = seqlen * heads * d
    return out


def _sizes(spec: AttentionFwdSpec, problem: Mapping[str, int]) -> dict[str, int]:
    fam = spec.FAMILY
    keys, strides = problem_keys(spec), stride_keys(spec)
    unknown = sorted(key for key in problem if key not in keys and key not in strides)
    missing = [key for key in keys if key not in problem]
    if unknown or missing:
        raise LaunchError(f"{fam}: the problem needs the sizes {', '.join(keys)} (and optionally the strides "
                          f"{', '.join(strides)}); unknown: {', '.join(unknown) or 'none'}, missing: "
                          f"{', '.join(missing) or 'none'}")
    sizes: dict[str, int] = {}
    for key in (*keys, *strides):
        if key not in problem:
            continue
        value = problem[key]
        smallest = 0 if key in ("seqlen_q", "seqlen_k", "max_seqlen_q", "total_q", "total_k") else 1
        if isinstance(value, bool) or not isinstance(value, int) or value < smallest:
            raise LaunchError(f"{fam}: problem size {key} must be an int >= {smallest}")
        sizes[key] = check_size(fam, key, value)
    if sizes["heads_q"] % sizes["heads_kv"] != 0:
        raise LaunchError(f"{fam}: heads_q={sizes['heads_q']} is not a multiple of heads_kv={sizes['heads_kv']}")
    for key, value in default_strides(spec, sizes).items():
        sizes.setdefault(key, value)
    for tensor in TENSORS:
        if sizes[f"{tensor}_stride_s"] < spec.head_dim and sizes[f"{tensor}_stride_h"] < spec.head_dim:
            raise LaunchError(f"{fam}: the {tensor} strides overlap the head_dim={spec.head_dim} contiguous "
                              f"elements")
    return sizes


def tensor_elems(spec: AttentionFwdSpec, sizes: Mapping[str, int], tensor: str) -> int:
    """Elements a tensor's buffer must hold: one past its last element."""
    kv = tensor in ("k", "v")
    heads = sizes["heads_kv"] if kv else sizes["heads_q"]
    if spec.seq_mode == "batched":
        rows = sizes["seqlen_k"] if kv else sizes["seqlen_q"]
        outer = (sizes["batch"] - 1) * sizes[f"{tensor}_stride_b"]
    else:
        rows = sizes["total_k"] if kv else sizes["total_q"]
        outer = 0
    if rows == 0:
        return 0
    return outer + (rows - 1) * sizes[f"{tensor}_stride_s"] + (heads - 1) * sizes[f"{tensor}_stride_h"] + \
        spec.head_dim


def launch(spec: AttentionFwdSpec, problem: Mapping[str, int]) -> LaunchContract:
    """Contract for one problem (see the module docstring)."""
    fam = spec.FAMILY
    sizes = _sizes(spec, problem)
    esize = elem_bytes(spec.dtype)
    in_type = f"ptr<{spec.dtype}, global>"
    args = [KernelArg(t, in_type, "input" if t != "o" else "output",
                      check_buffer(fam, t, tensor_elems(spec, sizes, t) * esize)) for t in TENSORS]
    if spec.seq_mode == "batched":
        lse_elems = sizes["batch"] * sizes["heads_q"] * sizes["seqlen_q"]
    else:
        lse_elems = sizes["heads_q"] * sizes["total_q"]
    args.append(KernelArg("lse", "ptr<f32, global>", "output", check_buffer(fam, "lse", lse_elems * 4)))
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
