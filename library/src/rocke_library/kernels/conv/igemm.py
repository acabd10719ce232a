"""Shared pieces of the implicit-GEMM conv families (conv_igemm_fwd, conv_igemm_dgrad, conv_igemm_wgrad).

check_gemm_tile: the dtype, vector and tile rules of a spec -- f16/bf16 inputs, the MMA atom and the
tile-GEMM main loop's tile (rocke.families.spec.check_tile_gemm); C++ twin kernels/conv/igemm.hpp. A spec
with these fields and the window fields (geometry.check_window) describes one kernel; each family
states which GEMM dimension each of m, n and k is (library/docs/conv.md).

IgemmPrologue / igemm_prologue: what every builder emits before its operands -- the main loop placed
at the workgroup's tile, the group (and split-K part) of workgroup z, the per-group channel counts
and the output extents; nhwc_rsrc: the buffer resource of one dense NHWC tensor. C++ twin
kernels/conv/igemm.hpp (the prologue is a template there: each family has its own Params).

ConvProblem / conv_problem: the host-side sizes of one NHWC x KYXC problem and their launch checks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from rocke.arch import MmaOp
from rocke.families.launch import LaunchError, problem_sizes
from rocke.families.spec import check_mma_atom, check_tile_gemm, check_vec
from rocke.helpers import TileGemm, TileGemmPlan, buffer_rsrc, divu_i32, remu_i32
from rocke.ir import Builder, ScalarType, Value

from .geometry import WindowSpec, output_hw
from .pixels import out_dims

INPUT_DTYPES = ("f16", "bf16")


def check_gemm_tile(spec: Any) -> MmaOp:
    """The rules, in order: dtype, vec (rocke.families.spec.check_vec), the atom (check_mma_atom),
    the tile of the main loop (check_tile_gemm); returns the atom."""
    if spec.dtype not in INPUT_DTYPES:
        spec.fail("dtype", f"must be one of {', '.join(INPUT_DTYPES)}")
    check_vec(spec)
    op = check_mma_atom(spec, "dtype", spec.dtype)
    check_tile_gemm(spec, op)
    return op


class GridSpec(WindowSpec, Protocol):
    """A spec with the window fields and the workgroup tile's bm x bn."""

    bm: int
    bn: int


class SizeParams(Protocol):
    """The problem-size parameters every implicit-GEMM conv kernel takes (its Params)."""

    h: Value
    w: Value
    c: Value
    k: Value
    g: Value


@dataclass(frozen=True)
class IgemmPrologue:
    """The values igemm_prologue emits (part is None without split-K)."""

    loop: TileGemm
    row0: Value
    col0: Value
    group: Value
    part: Value | None
    cg: Value
    kg: Value
    ho: Value
    wo: Value


def igemm_prologue(b: Builder, spec: GridSpec, plan: TileGemmPlan, elem: ScalarType, params: SizeParams,
                   split_k: int = 0) -> IgemmPrologue:
    """The main loop placed at workgroup (x, y)'s tile, then group = z (split_k 0) or z / split_k with
    part = z % split_k, C / G, K / G and the output extents (Ho, Wo), in that order."""
    loop = TileGemm(b, plan, elem)
    row0, col0 = loop.place_grid(b, spec.bm, spec.bn)
    part = None
    if split_k == 0:
        group = b.block_id_z(name="group")
    else:
        z = b.block_id_z(name="z")
        group = divu_i32(b, z, split_k, name="group")
        part = remu_i32(b, z, split_k, name="part")
    cg = b.divu(params.c, params.g, name="cg")
    kg = b.divu(params.k, params.g, name="kg")
    ho, wo = out_dims(b, spec, params.h, params.w)
    return IgemmPrologue(loop, row0, col0, group, part, cg, kg, ho, wo)


def nhwc_rsrc(b: Builder, base: Value, dims: tuple[Value, Value, Value, Value], esize: int, name: str) -> Value:
    """The buffer resource over a dense n x h x w x c tensor (dims) of esize-byte elements at base."""
    n, h, w, c = dims
    return buffer_rsrc(b, base, b.mul(b.mul(b.mul(n, h), w), c), esize, name=name)


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
