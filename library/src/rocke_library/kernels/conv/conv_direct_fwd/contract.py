"""Launch contract of conv_direct_fwd: grid (pixel tiles, channel tiles, groups)."""

from __future__ import annotations

from collections.abc import Mapping

from rocke.families.launch import KernelArg, LaunchContract, LaunchError, check_buffer, problem_sizes
from rocke.helpers import ceil_div, elem_bytes

from ..launch import fitting_output_hw
from .spec import ConvDirectFwdSpec

PROBLEM_KEYS = ("n", "h", "w", "c", "k", "g")
DEPTHWISE_KEYS = ("n", "h", "w", "c")  # groups = output channels = c


def problem_keys(spec: ConvDirectFwdSpec) -> tuple[str, ...]:
    return DEPTHWISE_KEYS if spec.depthwise else PROBLEM_KEYS


def launch(spec: ConvDirectFwdSpec, problem: Mapping[str, int]) -> LaunchContract:
    """Contract for an N x H x W x C input, K x Y x X x (C/g) weights and an N x Ho x Wo x K output:
    args (input, weight, [bias], output, n, h, w, c[, k, g]). Depthwise problems have no k and g
    (both are c)."""
    fam = spec.FAMILY
    keys = problem_keys(spec)
    sizes = problem_sizes(fam, problem, keys)
    n, h, w, c = sizes[:4]
    k, g = (c, c) if spec.depthwise else sizes[4:]
    if c % g != 0:
        raise LaunchError(f"{fam}: c={c} is not a multiple of g={g}")
    if k % g != 0:
        raise LaunchError(f"{fam}: k={k} is not a multiple of g={g}")
    vec_dim, vec_name = (c, "c") if spec.depthwise else (c // g, "c/g")
    if vec_dim % spec.vec != 0:
        raise LaunchError(f"{fam}: {vec_name}={vec_dim} is not a multiple of vec={spec.vec}")
    ho, wo = fitting_output_hw(fam, spec, h, w)
    esize = elem_bytes(spec.dtype)
    pixels = n * ho * wo
    buffer_type = f"ptr<{spec.dtype}, global>"
    args = [
        KernelArg("input", buffer_type, "input", check_buffer(fam, "input", n * h * w * c * esize)),
        KernelArg("weight", buffer_type, "input", check_buffer(fam, "weight", k * spec.taps * (c // g) * esize)),
    ]
    if spec.bias:
        args.append(KernelArg("bias", buffer_type, "input", check_buffer(fam, "bias", k * esize)))
    args.append(KernelArg("output", buffer_type, "output", check_buffer(fam, "output", pixels * k * esize)))
    args += [KernelArg(name, "i32", "scalar", value=value) for name, value in zip(keys, sizes, strict=True)]
    grid = (ceil_div(pixels, spec.tile_p), ceil_div(k // g if not spec.depthwise else c, spec.tile_k),
            1 if spec.depthwise else g)
    return LaunchContract(fam, spec.kernel_name(), spec.to_kv(), tuple(sorted(zip(keys, sizes, strict=True))),
                          tuple(args), grid, (spec.threads, 1, 1))
