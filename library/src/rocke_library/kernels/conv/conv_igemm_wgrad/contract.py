"""Launch contract of conv_igemm_wgrad.

Main kernel (convert=0): grid (Y*X*C/G tiles of bn, K/G tiles of bm, groups * split_k). With
split_k = 1 it stores dw; with split_k > 1 it adds f32 partial sums into `workspace` (K x Y x X x
C/G f32), which the caller zero-fills before the launch (LaunchContract.zero_init), and the convert
kernel (convert=1) launched after it writes dw from the workspace: grid (ceil(elements / (threads *
vec)), 1, 1), vec consecutive elements per thread.
"""

from __future__ import annotations

from collections.abc import Mapping

from rocke.families.launch import KernelArg, LaunchContract, check_buffer
from rocke.helpers import ceil_div, elem_bytes

from ..igemm import PROBLEM_KEYS, conv_problem
from .spec import ConvIgemmWgradSpec

__all__ = ["PROBLEM_KEYS", "SCALARS", "launch"]

SCALARS = PROBLEM_KEYS  # i32 arguments of the main kernel after the buffers


def launch(spec: ConvIgemmWgradSpec, problem: Mapping[str, int]) -> LaunchContract:
    """Contract for x (N x H x W x C), dy (N x Ho x Wo x K) and dw (K x Y x X x C/g), the problem
    being the forward one (n, h, w, c, k, g). Main kernel args: (input, dy, dw, n, h, w, c, k, g)
    with split_k = 1, (input, dy, workspace, n, ..., g) with split_k > 1; convert kernel args:
    (workspace, dw, elements)."""
    fam = spec.FAMILY
    p = conv_problem(fam, spec, spec.vec, problem)
    esize = elem_bytes(spec.dtype)
    buffer_type = f"ptr<{spec.dtype}, global>"
    elements = p.k * spec.taps * p.cg
    workspace = KernelArg("workspace", "ptr<f32, global>", "input" if spec.convert else "inout",
                          check_buffer(fam, "workspace", elements * 4))
    dw = KernelArg("dw", buffer_type, "output", check_buffer(fam, "dw", elements * esize))
    if spec.convert:
        args = (workspace, dw, KernelArg("elements", "i32", "scalar", value=elements))
        grid = (ceil_div(elements, spec.threads * spec.vec), 1, 1)
        return LaunchContract(fam, spec.kernel_name(), spec.to_kv(), p.sizes(), args, grid, (spec.threads, 1, 1),
                              workspace_bytes=workspace.bytes)
    main = [
        KernelArg("input", buffer_type, "input", check_buffer(fam, "input", p.n * p.h * p.w * p.c * esize)),
        KernelArg("dy", buffer_type, "input", check_buffer(fam, "dy", p.n * p.ho * p.wo * p.k * esize)),
        workspace if spec.atomic else dw,
    ]
    main += [KernelArg(name, "i32", "scalar", value=getattr(p, name)) for name in SCALARS]
    grid = (ceil_div(spec.taps * p.cg, spec.bn), ceil_div(p.kg, spec.bm), p.g * spec.split_k)
    if spec.atomic:
        return LaunchContract(fam, spec.kernel_name(), spec.to_kv(), p.sizes(), tuple(main), grid,
                              (spec.threads, 1, 1), workspace_bytes=workspace.bytes, zero_init=("workspace",))
    return LaunchContract(fam, spec.kernel_name(), spec.to_kv(), p.sizes(), tuple(main), grid, (spec.threads, 1, 1))
