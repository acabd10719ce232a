"""Launch contract of conv_igemm_fwd: grid (output-channel tiles, pixel tiles, groups)."""

from __future__ import annotations

from collections.abc import Mapping

from rocke.families.launch import KernelArg, LaunchContract, LaunchError, check_buffer, problem_sizes
from rocke.helpers import ceil_div, elem_bytes

from ..geometry import output_hw
from .spec import ConvIgemmFwdSpec

PROBLEM_KEYS = ("n", "h", "w", "c", "k", "g")


def launch(spec: ConvIgemmFwdSpec, problem: Mapping[str, int]) -> LaunchContract:
    """Contract for an N x H x W x C input, K x Y x X x (C/g) weights and an N x Ho x Wo x K output:
    args (input, weight, [bias], output, n, h, w, c, k, g); grid (ceil(K/g / bn), ceil(N*Ho*Wo / bm), g),
    block (wm * wn * wave size). Depthwise is g = c = k (one channel per group)."""
    fam = spec.FAMILY
    sizes = problem_sizes(fam, problem, PROBLEM_KEYS)
    n, h, w, c, k, g = sizes
    if c % g != 0:
        raise LaunchError(f"{fam}: c={c} is not a multiple of g={g}")
    if k % g != 0:
        raise LaunchError(f"{fam}: k={k} is not a multiple of g={g}")
    if (c // g) % spec.vec != 0:
        raise LaunchError(f"{fam}: c/g={c // g} is not a multiple of vec={spec.vec}")
    ho, wo = output_hw(spec, h, w)
    if ho < 1 or wo < 1:
        raise LaunchError(f"{fam}: a {h} x {w} input padded by {spec.pad_h}, {spec.pad_w} is smaller than the "
                          f"filter window")
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
    args += [KernelArg(name, "i32", "scalar", value=value) for name, value in zip(PROBLEM_KEYS, sizes, strict=True)]
    grid = (ceil_div(k // g, spec.bn), ceil_div(pixels, spec.bm), g)
    return LaunchContract(fam, spec.kernel_name(), spec.to_kv(), tuple(sorted(zip(PROBLEM_KEYS, sizes, strict=True))),
                          tuple(args), grid, (spec.threads, 1, 1))
