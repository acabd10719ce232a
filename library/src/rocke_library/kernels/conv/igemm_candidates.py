"""Dispatch rules the implicit-GEMM conv hooks share (conv_igemm_fwd, _dgrad, _wgrad candidates.py).

Rejected before a spec exists: a dtype other than f16 / bf16 (DTYPE_UNSUPPORTED), a layout other
than nhwc (LAYOUT_UNSUPPORTED), an empty reduction under a non-empty output (EMPTY: each hook says
which sizes), an arch with no f32-accumulating MMA atom for the dtype (ARCH_UNSUPPORTED; every arch
of this build has one). Otherwise the candidates use the arch's largest atom for the dtype (m * n * k,
catalog order on a tie: the fewest MMA issues per tile) and the tiles of TILES for the arch's MMA
kind, large first: a 64 x 64 x 32 double-buffered tile of four waves, then a small single-buffered
one (one wave with MFMA, two with WMMA: the 16-wide atom needs bn = 32 for two) for the arch whose
table refuses the large one. With mma.sync (sm_90: 132 SMs, a 16 x 8 atom) a 128 x 64 x 32 tile of
eight warps (each 32 x 32: 2 x 4 atoms) comes first, but only where it fills the arch (a tile
marked `fill` is a candidate when the GEMM holds it, m >= bm and n >= bn, and its workgroups,
GemmGrid.workgroups, number at least cu_count); a smaller problem starts at the 64 x 64 tile, whose
twice as many workgroups spread it over more SMs. LDS lines are padded by LDS_PAD elements (every sm_90 tile stays
under the 48 KiB of static shared memory). The window fields are the problem's. C++ twin:
rocke_library/kernels/conv/igemm_candidates.hpp.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rocke.arch import ArchTarget, MmaOp, mma_ops
from rocke.helpers import ceil_div, elem_bytes

from ..candidate import Candidate, vector_width
from .igemm import INPUT_DTYPES, PROBLEM_KEYS

LDS_PAD = 8
# (bm, bn, bk, wm, wn, double_buffer, fill) per MMA kind, large first; fill: only where the tile's
# workgroups fill the arch's CUs (GemmGrid.fills).
TILES = {"mfma": ((64, 64, 32, 2, 2, True, False), (32, 32, 16, 1, 1, False, False)),
         "wmma": ((64, 64, 32, 2, 2, True, False), (32, 32, 16, 1, 2, False, False)),
         "mma_sync": ((128, 64, 32, 4, 2, True, True), (64, 64, 32, 2, 2, True, False),
                      (32, 32, 16, 1, 2, False, False))}
WINDOW = ("dil_h", "dil_w", "filter_x", "filter_y", "pad_h", "pad_w", "stride_h", "stride_w")


@dataclass(frozen=True)
class GemmGrid:
    """A hook's GEMM view: m rows (the grid's y), n columns (its x), `batches` independent GEMMs (its z)."""

    m: int
    n: int
    batches: int

    def workgroups(self, bm: int, bn: int) -> int:
        """Workgroups of a bm x bn tile."""
        return self.batches * ceil_div(self.m, bm) * ceil_div(self.n, bn)

    def fills(self, bm: int, bn: int, cu_count: int) -> bool:
        """A bm x bn tile fits the GEMM (m >= bm, n >= bn) and its workgroups fill cu_count CUs."""
        return self.m >= bm and self.n >= bn and self.workgroups(bm, bn) >= cu_count


def hook_reasons(problem: Any, family: str) -> tuple[list[str], list[str]]:
    """The dtype and layout reasons (codes, details) every implicit-GEMM hook gives."""
    reasons, details = [], []
    if problem.dtype not in INPUT_DTYPES:
        reasons.append("DTYPE_UNSUPPORTED")
        details.append(f"dtype={problem.dtype}; {family} has {', '.join(INPUT_DTYPES)}")
    if problem.layout != "nhwc":
        reasons.append("LAYOUT_UNSUPPORTED")
        details.append(f"layout={problem.layout}; {family} has nhwc")
    return reasons, details


def largest_atom(target: ArchTarget, dtype: str) -> MmaOp | None:
    """The arch's largest f32-accumulating MMA atom for dtype (catalog order on a tie), or None."""
    atoms = sorted(mma_ops(target, dtype, dtype, "f32"), key=lambda op: -op.m * op.n * op.k)
    return atoms[0] if atoms else None


def add_empty(problem: Any, field: str, reasons: list[str], details: list[str]) -> None:
    """EMPTY when the reduction is: `field` (its size, e.g. k for dgrad) is 0, or the filter window
    does not fit the padded input (no output pixel)."""
    empty = [f"{field}=0"] if getattr(problem, field) == 0 else []
    ho, wo = problem.output_hw()
    if ho * wo == 0:
        empty.append(f"Ho x Wo = {ho} x {wo}: the filter window does not fit the padded input")
    if empty:
        reasons.append("EMPTY")
        details.append("; ".join(empty))


def gemm_candidates(problem: Any, target: ArchTarget, reasons: list[str], details: list[str], run: int,
                    extra: dict[str, object], grid: GemmGrid
                    ) -> list[tuple[dict[str, object], tuple[tuple[str, int], ...]]]:
    """Per tile in order (a `fill` tile only where it fills target's CUs: GemmGrid.fills), the spec
    fields (the window, dtype, atom, tile, vec from the contiguous channel run `run` and align, then
    `extra`) and the contract's problem sizes; [] when the hook's reasons (with the atom's) reject
    the problem, filling reasons and details."""
    atom = largest_atom(target, problem.dtype) if problem.dtype in INPUT_DTYPES else None
    if not reasons and atom is None:
        reasons.append("ARCH_UNSUPPORTED")
        details.append(f"{target.name} has no MMA atom for {problem.dtype} accumulating in f32")
    if reasons:
        return []
    assert atom is not None
    vec = vector_width(elem_bytes(problem.dtype), run, problem.align)
    sizes = tuple(sorted((key, getattr(problem, key)) for key in PROBLEM_KEYS))
    out = []
    for bm, bn, bk, wm, wn, double_buffer, fill in TILES[target.mma_kind]:
        if fill and not grid.fills(bm, bn, target.cu_count):
            continue
        fields: dict[str, object] = {name: getattr(problem, name) for name in WINDOW}
        fields.update(bk=bk, bm=bm, bn=bn, double_buffer=double_buffer, dtype=problem.dtype, lds_pad=LDS_PAD,
                      op_id=atom.id, vec=vec, wm=wm, wn=wn, **extra)
        out.append((fields, sizes))
    return out


def rejected(family: str, reasons: list[str], details: list[str]) -> list[Candidate]:
    """The one candidate of a hook that rejects the problem before a spec exists."""
    return [Candidate(family, reasons=tuple(reasons), detail="; ".join(details))]
