"""Shared pieces of the implicit-GEMM conv families (conv_igemm_dgrad, conv_igemm_wgrad).

check_gemm_tile: the tile rules of a spec -- the MMA atom and the workgroup tile of the GEMM view
(bm x bn x bk, wm x wn waves, lds_pad, f16/bf16 inputs); C++ twin kernels/conv/igemm.hpp. A spec
with these fields and the window fields (geometry.check_window) describes one kernel; each family
states which GEMM dimension each of m, n and k is (library/docs/conv.md).

ConvProblem / conv_problem: the host-side sizes of one NHWC x KYXC problem and their launch checks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rocke.arch import MmaOp
from rocke.families.launch import LaunchError, problem_sizes
from rocke.families.spec import check_mma_atom

from .geometry import WindowSpec, output_hw

INPUT_DTYPES = ("f16", "bf16")
MAX_WAVES_PER_DIM = 8
MAX_TILE_MN = 256
MAX_TILE_K = 128
MAX_LDS_PAD = 16


def check_gemm_tile(spec: Any) -> MmaOp:
    """The rules, in order: dtype, the atom (op_id), waves, tile sizes, atom multiples, LDS pad;
    returns the atom."""
    if spec.dtype not in INPUT_DTYPES:
        spec.fail("dtype", f"must be one of {', '.join(INPUT_DTYPES)}")
    op = check_mma_atom(spec, "dtype", spec.dtype)
    for field in ("wm", "wn"):
        if not 1 <= getattr(spec, field) <= MAX_WAVES_PER_DIM:
            spec.fail(field, f"must be in 1..{MAX_WAVES_PER_DIM}")
    for field, most in (("bm", MAX_TILE_MN), ("bn", MAX_TILE_MN), ("bk", MAX_TILE_K)):
        if not 1 <= getattr(spec, field) <= most:
            spec.fail(field, f"must be in 1..{most}")
    if spec.bm % (spec.wm * op.m) != 0:
        spec.fail("bm", f"must be a multiple of wm * atom m = {spec.wm} * {op.m} ({op.id})")
    if spec.bn % (spec.wn * op.n) != 0:
        spec.fail("bn", f"must be a multiple of wn * atom n = {spec.wn} * {op.n} ({op.id})")
    if spec.bk % op.k != 0:
        spec.fail("bk", f"must be a multiple of atom k = {op.k} ({op.id})")
    if not 0 <= spec.lds_pad <= MAX_LDS_PAD:
        spec.fail("lds_pad", f"must be in 0..{MAX_LDS_PAD}")
    return op


PROBLEM_KEYS = ("n", "h", "w", "c", "k", "g")


@dataclass(frozen=True)
class ConvProblem:
    """x is n x h x w x c, w is k x Y x X x c/g, y (and dy) n x ho x wo x k, g groups."""

    n: int
    h: int
    w: int
    c: int
    k: int
    g: int
    ho: int
    wo: int

    @property
    def cg(self) -> int:
        """Input channels per group."""
        return self.c // self.g

    @property
    def kg(self) -> int:
        """Output channels per group."""
        return self.k // self.g

    def sizes(self) -> tuple[tuple[str, int], ...]:
        """The problem keys and values, sorted by name (LaunchContract.problem)."""
        return tuple(sorted((key, getattr(self, key)) for key in PROBLEM_KEYS))


def conv_problem(family: str, spec: WindowSpec, vec: int, problem: Mapping[str, int]) -> ConvProblem:
    """The sizes of `problem` (exactly PROBLEM_KEYS), or LaunchError: c and k multiples of g, both
    per-group channel counts multiples of vec (vector accesses stay in one group's channels), and
    an input at least as large as the filter window."""
    n, h, w, c, k, g = problem_sizes(family, problem, PROBLEM_KEYS)
    if c % g != 0:
        raise LaunchError(f"{family}: c={c} is not a multiple of g={g}")
    if k % g != 0:
        raise LaunchError(f"{family}: k={k} is not a multiple of g={g}")
    for name, size in (("c/g", c // g), ("k/g", k // g)):
        if size % vec != 0:
            raise LaunchError(f"{family}: {name}={size} is not a multiple of vec={vec}")
    ho, wo = output_hw(spec, h, w)
    if ho < 1 or wo < 1:
        raise LaunchError(f"{family}: a {h} x {w} input padded by {spec.pad_h}, {spec.pad_w} is smaller than the "
                          f"filter window")
    return ConvProblem(n, h, w, c, k, g, ho, wo)
