"""Launch contract of conv_igemm_dgrad: grid (C/G tiles of bn, N*H*W tiles of bm, groups)."""

from __future__ import annotations

from collections.abc import Mapping

from rocke.families.launch import KernelArg, LaunchContract, check_buffer
from rocke.helpers import ceil_div, elem_bytes

from ..igemm import PROBLEM_KEYS, conv_problem
from .spec import ConvIgemmDgradSpec

__all__ = ["PROBLEM_KEYS", "SCALARS", "launch"]

SCALARS = PROBLEM_KEYS  # i32 kernel arguments after the buffers


def launch(spec: ConvIgemmDgradSpec, problem: Mapping[str, int]) -> LaunchContract:
    """Contract for dy (N x Ho x Wo x K), weights (K x Y x X x C/g) and dx (N x H x W x C), the
    problem being the forward one (n, h, w, c, k, g: x's sizes, output channels, groups): args (dy,
    weight, dx, n, h, w, c, k, g). Every element of dx is written, 0 where no tap reaches
    the pixel; nothing needs zero-filling first."""
    fam = spec.FAMILY
    p = conv_problem(fam, spec, spec.vec, problem)
    esize = elem_bytes(spec.dtype)
    buffer_type = f"ptr<{spec.dtype}, global>"
    args = [
        KernelArg("dy", buffer_type, "input", check_buffer(fam, "dy", p.n * p.ho * p.wo * p.k * esize)),
        KernelArg("weight", buffer_type, "input", check_buffer(fam, "weight", p.k * spec.taps * p.cg * esize)),
        KernelArg("dx", buffer_type, "output", check_buffer(fam, "dx", p.n * p.h * p.w * p.c * esize)),
    ]
    args += [KernelArg(name, "i32", "scalar", value=getattr(p, name)) for name in SCALARS]
    grid = (ceil_div(p.cg, spec.bn), ceil_div(p.n * p.h * p.w, spec.bm), p.g)
    return LaunchContract(fam, spec.kernel_name(), spec.to_kv(), p.sizes(), tuple(args), grid, (spec.threads, 1, 1))
