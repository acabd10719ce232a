"""Launch contract of the gemm family: one workgroup per bm x bn tile of C, grid (N tiles, M tiles)."""

from __future__ import annotations

from collections.abc import Mapping

from rocke.families.launch import KernelArg, LaunchContract, check_buffer, problem_sizes
from rocke.helpers import ceil_div, elem_bytes

from .spec import GemmSpec

PROBLEM_KEYS = ("m", "n", "k")


def launch(spec: GemmSpec, problem: Mapping[str, int]) -> LaunchContract:
    """Contract for C[m x n] = alpha * A[m x k] @ B[k x n] (+ bias[n]): args a, b, c, (bias), m, n,
    k, alpha; alpha (f32) comes from the caller."""
    m, n, k = problem_sizes(spec.FAMILY, problem, PROBLEM_KEYS)
    fam = spec.FAMILY
    in_size, out_size = elem_bytes(spec.a_dtype), elem_bytes(spec.c_dtype)
    in_type, out_type = f"ptr<{spec.a_dtype}, global>", f"ptr<{spec.c_dtype}, global>"
    args = [
        KernelArg("a", in_type, "input", check_buffer(fam, "a", m * k * in_size)),
        KernelArg("b", in_type, "input", check_buffer(fam, "b", k * n * in_size)),
        KernelArg("c", out_type, "output", check_buffer(fam, "c", m * n * out_size)),
    ]
    if spec.bias:
        args.append(KernelArg("bias", out_type, "input", check_buffer(fam, "bias", n * out_size)))
    args += [KernelArg(name, "i32", "scalar", value=value) for name, value in (("m", m), ("n", n), ("k", k))]
    args.append(KernelArg("alpha", "f32", "scalar"))
    grid = (ceil_div(n, spec.bn), ceil_div(m, spec.bm), 1)
    return LaunchContract(fam, spec.kernel_name(), spec.to_kv(), (("k", k), ("m", m), ("n", n)), tuple(args),
                          grid, (spec.threads, 1, 1))
