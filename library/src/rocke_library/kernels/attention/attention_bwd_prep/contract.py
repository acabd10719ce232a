"""Launch contract of attention_bwd_prep: grid (ceil(rows / rows_per_block), 1, 1) over the LSE's
rows (batched B * H_q * S_q, varlen H_q * total_q), one workgroup of `block` threads.

Problem keys. batched: batch, seqlen_q, heads_q, optionally the strides {o,do}_stride_{b,s,h}
(elements; default contiguous [B, S_q, H_q, D]); varlen: total_q, heads_q, optionally
{o,do}_stride_{s,h} (default [total_q, H_q, D]); both: zero_count (f32 elements of the
accumulation region to clear, a multiple of 4; default 0). head_dim is the spec's.

Arguments, in order: o, do (inputs, the input dtype), lse (f32 input, [B, H_q, S_q] or
[H_q, total_q]), lse2, delta (f32 outputs shaped like lse), zero_ws (f32 output, zero_count
elements), then the i32 sizes batch, seqlen_q (varlen: total_q), heads_q, zero_count, zero_iters
(zero-fill iterations per workgroup: ceil(zero_count / (grid_x * block * ZERO_VEC)), ZERO_VEC = 4), then the strides
of o and do.
"""

from __future__ import annotations

from collections.abc import Mapping

from rocke.families.launch import KernelArg, LaunchContract, LaunchError, check_buffer
from rocke.helpers import ceil_div, elem_bytes

from .builder import F32_BYTES, TENSORS, ZERO_VEC
from .spec import AttentionBwdPrepSpec

BATCHED_KEYS = ("batch", "seqlen_q", "heads_q")
VARLEN_KEYS = ("total_q", "heads_q")
OPTIONAL_KEYS = ("zero_count",)


def problem_keys(spec: AttentionBwdPrepSpec) -> tuple[str, ...]:
    return BATCHED_KEYS if spec.seq_mode == "batched" else VARLEN_KEYS


def stride_keys(spec: AttentionBwdPrepSpec) -> tuple[str, ...]:
    dims = ("b", "s", "h") if spec.seq_mode == "batched" else ("s", "h")
    return tuple(f"{t}_stride_{d}" for t in TENSORS for d in dims)


def row_count(spec: AttentionBwdPrepSpec, sizes: Mapping[str, int]) -> int:
    """Rows of the LSE (and of lse2, delta)."""
    if spec.seq_mode == "batched":
        return sizes["batch"] * sizes["heads_q"] * sizes["seqlen_q"]
    return sizes["heads_q"] * sizes["total_q"]


def _sizes(spec: AttentionBwdPrepSpec, problem: Mapping[str, int]) -> dict[str, int]:
    fam = spec.FAMILY
    keys, strides = problem_keys(spec), stride_keys(spec)
    unknown = sorted(k for k in problem if k not in keys and k not in strides and k not in OPTIONAL_KEYS)
    missing = [k for k in keys if k not in problem]
    if unknown or missing:
        raise LaunchError(f"{fam}: the problem needs the sizes {', '.join(keys)} (and optionally zero_count and "
                          f"the strides {', '.join(strides)}); unknown: {', '.join(unknown) or 'none'}, missing: "
                          f"{', '.join(missing) or 'none'}")
    sizes: dict[str, int] = {"zero_count": 0}
    for key in (*keys, *OPTIONAL_KEYS, *strides):
        if key not in problem:
            continue
        value = problem[key]
        smallest = 0 if key in ("seqlen_q", "total_q", "zero_count") else 1
        if isinstance(value, bool) or not isinstance(value, int) or value < smallest:
            raise LaunchError(f"{fam}: problem size {key} must be an int >= {smallest}")
        sizes[key] = value
    if sizes["zero_count"] % ZERO_VEC != 0:
        raise LaunchError(f"{fam}: zero_count={sizes['zero_count']} is not a multiple of {ZERO_VEC}")
    d = spec.head_dim
    for tensor in TENSORS:
        sizes.setdefault(f"{tensor}_stride_h", d)
        sizes.setdefault(f"{tensor}_stride_s", sizes["heads_q"] * d)
        if spec.seq_mode == "batched":
            # a tensor of no rows is never addressed: one row's stride (>= 1, as a contract takes it back)
            sizes.setdefault(f"{tensor}_stride_b", max(sizes["seqlen_q"], 1) * sizes["heads_q"] * d)
        if sizes[f"{tensor}_stride_s"] < d and sizes[f"{tensor}_stride_h"] < d:
            raise LaunchError(f"{fam}: the {tensor} strides overlap the head_dim={d} contiguous elements")
    return sizes


def tensor_elems(spec: AttentionBwdPrepSpec, sizes: Mapping[str, int], tensor: str) -> int:
    """Elements the buffer of o or do must hold: one past its last element."""
    rows = sizes["seqlen_q"] if spec.seq_mode == "batched" else sizes["total_q"]
    if rows == 0:
        return 0
    outer = (sizes["batch"] - 1) * sizes[f"{tensor}_stride_b"] if spec.seq_mode == "batched" else 0
    return outer + (rows - 1) * sizes[f"{tensor}_stride_s"] + (sizes["heads_q"] - 1) * sizes[f"{tensor}_stride_h"] + \
        spec.head_dim


def launch(spec: AttentionBwdPrepSpec, problem: Mapping[str, int]) -> LaunchContract:
    """Contract for one problem (see the module docstring)."""
    fam = spec.FAMILY
    sizes = _sizes(spec, problem)
    esize = elem_bytes(spec.dtype)
    in_type = f"ptr<{spec.dtype}, global>"
    rows = row_count(spec, sizes)
    args = [KernelArg(t, in_type, "input", check_buffer(fam, t, tensor_elems(spec, sizes, t) * esize))
            for t in TENSORS]
    args.append(KernelArg("lse", "ptr<f32, global>", "input", check_buffer(fam, "lse", rows * F32_BYTES)))
    for name in ("lse2", "delta"):
        args.append(KernelArg(name, "ptr<f32, global>", "output", check_buffer(fam, name, rows * F32_BYTES)))
    args.append(KernelArg("zero_ws", "ptr<f32, global>", "output",
                          check_buffer(fam, "zero_ws", sizes["zero_count"] * F32_BYTES)))
    grid_x = max(1, ceil_div(rows, spec.rows_per_block))
    values = {name: sizes[name] for name in (("batch", "seqlen_q") if spec.seq_mode == "batched" else ("total_q",))}
    values["heads_q"] = sizes["heads_q"]
    values["zero_count"] = sizes["zero_count"]
    values["zero_iters"] = ceil_div(sizes["zero_count"], grid_x * spec.block * ZERO_VEC)
    args += [KernelArg(name, "i32", "scalar", value=value) for name, value in values.items()]
    args += [KernelArg(key, "i32", "scalar", value=sizes[key]) for key in stride_keys(spec)]
    return LaunchContract(fam, spec.kernel_name(), spec.to_kv(), tuple(sorted(sizes.items())), tuple(args),
                          (grid_x, 1, 1), (spec.block, 1, 1))
