"""Launch contract of the img2col family: one thread per (pixel, channel vector), grid (.., groups)."""

from __future__ import annotations

from collections.abc import Mapping

from rocke.families.launch import KernelArg, LaunchContract, LaunchError, check_buffer, problem_sizes
from rocke.helpers import ceil_div, elem_bytes

from ..launch import fitting_output_hw
from .spec import Img2colSpec

PROBLEM_KEYS = ("n", "h", "w", "c", "g")


def check_channels(spec: Img2colSpec, c: int, g: int) -> int:
    """Channels per group; LaunchError unless g divides c and vec divides the quotient."""
    if c % g != 0:
        raise LaunchError(f"{spec.FAMILY}: c={c} is not a multiple of g={g}")
    if (c // g) % spec.vec != 0:
        raise LaunchError(f"{spec.FAMILY}: channels per group c/g={c // g} are not a multiple of vec={spec.vec}")
    return c // g


def launch(spec: Img2colSpec, problem: Mapping[str, int]) -> LaunchContract:
    """Contract for an N x H x W x C input with g groups: args (input, col, n, h, w, c, g); col is
    [g][N*Ho*Wo][filter_y*filter_x*C/g]."""
    n, h, w, c, g = problem_sizes(spec.FAMILY, problem, PROBLEM_KEYS)
    fam = spec.FAMILY
    cg = check_channels(spec, c, g)
    ho, wo = fitting_output_hw(fam, spec, h, w)
    esize = elem_bytes(spec.dtype)
    rows = n * ho * wo
    buffer_type = f"ptr<{spec.dtype}, global>"
    args = [
        KernelArg("input", buffer_type, "input", check_buffer(fam, "input", n * h * w * c * esize)),
        KernelArg("col", buffer_type, "output", check_buffer(fam, "col", g * rows * spec.taps * cg * esize)),
    ]
    sizes = tuple(zip(PROBLEM_KEYS, (n, h, w, c, g), strict=True))
    args += [KernelArg(name, "i32", "scalar", value=value) for name, value in sizes]
    grid = (ceil_div(rows * (cg // spec.vec), spec.block), g, 1)
    return LaunchContract(fam, spec.kernel_name(), spec.to_kv(), tuple(sorted(sizes)), tuple(args), grid,
                          (spec.block, 1, 1))
