"""Launch-contract sizes shared by the attention backward families: the problem's sizes and
strides checked and completed, buffer extents of the [S, H, D] tensors and of the per-row LSE2 / D
arrays. A tensor is query-side (S_q rows, h_q heads) or key-side (S_k rows, h_kv heads); strides
are in elements, default contiguous [B, S, H, D] (batched) or [T, H, D] (varlen)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rocke.families.launch import LaunchError

LENGTH_KEYS = ("seqlen_q", "seqlen_k", "max_seqlen_q", "max_seqlen_k", "total_q", "total_k")


def stride_keys(seq_mode: str, tensors: Sequence[str]) -> tuple[str, ...]:
    """The stride argument names of the tensors, in argument order."""
    dims = ("b", "s", "h") if seq_mode == "batched" else ("s", "h")
    return tuple(f"{t}_stride_{d}" for t in tensors for d in dims)


def default_strides(seq_mode: str, head_dim: int, tensors: Sequence[str], query_side: Sequence[str],
                    problem: Mapping[str, int]) -> dict[str, int]:
    """Contiguous [B, S, H, D] (batched) or [T, H, D] (varlen) strides of every tensor."""
    out = {}
    for tensor in tensors:
        query = tensor in query_side
        heads = problem["heads_q"] if query else problem["heads_kv"]
        out[f"{tensor}_stride_h"] = head_dim
        out[f"{tensor}_stride_s"] = heads * head_dim
        if seq_mode == "batched":
            # a tensor of no rows is never addressed: one row's stride (>= 1, as a contract takes it back)
            seqlen = max(problem["seqlen_q"] if query else problem["seqlen_k"], 1)
            out[f"{tensor}_stride_b"] = seqlen * heads * head_dim
    return out


def problem_sizes(family: str, seq_mode: str, head_dim: int, keys: Sequence[str], tensors: Sequence[str],
                  query_side: Sequence[str], problem: Mapping[str, int]) -> dict[str, int]:
    """The problem's sizes (exactly `keys`, optionally the strides), checked, with the default
    strides filled in; LaunchError for a problem the kernels cannot launch."""
    strides = stride_keys(seq_mode, tensors)
    unknown = sorted(key for key in problem if key not in keys and key not in strides)
    missing = [key for key in keys if key not in problem]
    if unknown or missing:
        raise LaunchError(f"{family}: the problem needs the sizes {', '.join(keys)} (and optionally the strides "
                          f"{', '.join(strides)}); unknown: {', '.join(unknown) or 'none'}, missing: "
                          f"{', '.join(missing) or 'none'}")
    sizes: dict[str, int] = {}
    for key in (*keys, *strides):
        if key not in problem:
            continue
        value = problem[key]
        smallest = 0 if key in LENGTH_KEYS else 1
        if isinstance(value, bool) or not isinstance(value, int) or value < smallest:
            raise LaunchError(f"{family}: problem size {key} must be an int >= {smallest}")
        sizes[key] = value
    if sizes["heads_q"] % sizes["heads_kv"] != 0:
        raise LaunchError(f"{family}: heads_q={sizes['heads_q']} is not a multiple of heads_kv={sizes['heads_kv']}")
    for key, value in default_strides(seq_mode, head_dim, tensors, query_side, sizes).items():
        sizes.setdefault(key, value)
    for tensor in tensors:
        if sizes[f"{tensor}_stride_s"] < head_dim and sizes[f"{tensor}_stride_h"] < head_dim:
            raise LaunchError(f"{family}: the {tensor} strides overlap the head_dim={head_dim} contiguous elements")
    return sizes


def tensor_elems(seq_mode: str, head_dim: int, sizes: Mapping[str, int], tensor: str, query: bool) -> int:
    """Elements a tensor's buffer must hold: one past its last element."""
    heads = sizes["heads_q"] if query else sizes["heads_kv"]
    if seq_mode == "batched":
        rows = sizes["seqlen_q"] if query else sizes["seqlen_k"]
        outer = (sizes["batch"] - 1) * sizes[f"{tensor}_stride_b"]
    else:
        rows = sizes["total_q"] if query else sizes["total_k"]
        outer = 0
    if rows == 0:
        return 0
    return outer + (rows - 1) * sizes[f"{tensor}_stride_s"] + (heads - 1) * sizes[f"{tensor}_stride_h"] + head_dim


def stat_elems(seq_mode: str, sizes: Mapping[str, int]) -> int:
    """Elements of LSE2 and D: batched [B, H_q, S_q], varlen [H_q, total_q]."""
    if seq_mode == "batched":
        return sizes["batch"] * sizes["heads_q"] * sizes["seqlen_q"]
    return sizes["heads_q"] * sizes["total_q"]
