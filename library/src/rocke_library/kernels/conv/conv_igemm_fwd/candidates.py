"""Dispatch hook of conv_igemm_fwd: its candidates for a conv_fwd problem, in order.

The shared implicit-GEMM rules (conv/igemm_candidates.py: dtype, layout, the largest MMA atom,
tiles large first) plus: an empty reduction c = 0 is EMPTY, and a depthwise problem (g = c = k > 1)
is SHAPE_DEFERRED: one output channel per group fills one column of the atom's n, so the
conv_fwd kind's direct family, whose depthwise kernel has no such waste, serves it. The vector
width divides the contiguous input-channel run c/g and the alignment; bias and relu are the
problem's. The GEMM grid is M = n * Ho * Wo pixels by N = k/g channels per group. C++ twin:
rocke_library/kernels/conv/conv_igemm_fwd/candidates.hpp.
"""

from __future__ import annotations

from typing import Any

from rocke.arch import ArchTarget

from ...candidate import Candidate, spec_kv
from ..igemm_candidates import GemmGrid, gemm_candidates, hook_reasons, rejected
from .spec import ConvIgemmFwdSpec

FAMILY = ConvIgemmFwdSpec.FAMILY


def candidates(problem: Any, target: ArchTarget) -> list[Candidate]:
    reasons, details = hook_reasons(problem, FAMILY)
    if problem.c == 0:
        reasons.append("EMPTY")
        details.append("c=0")
    if problem.g > 1 and problem.g == problem.c == problem.k:
        reasons.append("SHAPE_DEFERRED")
        details.append(f"g=c=k={problem.g} (depthwise): one output channel per group")
    ho, wo = problem.output_hw()
    tiles = gemm_candidates(problem, target, reasons, details, problem.c // problem.g,
                            {"bias": problem.bias, "relu": problem.relu},
                            GemmGrid(problem.n * ho * wo, problem.k // problem.g, problem.g))
    if reasons:
        return rejected(FAMILY, reasons, details)
    return [Candidate(FAMILY, spec_kv(fields), sizes) for fields, sizes in tiles]
