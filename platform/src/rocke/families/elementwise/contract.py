"""Launch contract of the elementwise family: one thread per vec elements, 1D grid."""

from __future__ import annotations

from collections.abc import Mapping

from rocke.families.launch import KernelArg, LaunchContract, check_buffer, problem_sizes
from rocke.helpers import ceil_div, elem_bytes

from .spec import ElementwiseSpec

PROBLEM_KEYS = ("n",)


def launch(spec: ElementwiseSpec, problem: Mapping[str, int]) -> LaunchContract:
    """Contract for n elements: args (inputs..., out, n), grid ceil(n / (block * vec))."""
    (n,) = problem_sizes(spec.FAMILY, problem, PROBLEM_KEYS)
    buffer_type = f"ptr<{spec.dtype}, global>"
    nbytes = n * elem_bytes(spec.dtype)
    args = [KernelArg(name, buffer_type, "input", check_buffer(spec.FAMILY, name, nbytes)) for name in spec.inputs]
    args.append(KernelArg("out", buffer_type, "output", check_buffer(spec.FAMILY, "out", nbytes)))
    args.append(KernelArg("n", "i32", "scalar", value=n))
    grid = ceil_div(n, spec.block * spec.vec)
    return LaunchContract(spec.FAMILY, spec.kernel_name(), spec.to_kv(), (("n", n),), tuple(args),
                          (grid, 1, 1), (spec.block, 1, 1))
