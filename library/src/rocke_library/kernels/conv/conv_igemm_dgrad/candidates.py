"""Dispatch hook of conv_igemm_dgrad: its candidates for a conv_dgrad problem, in order.

The shared implicit-GEMM rules (conv/igemm_candidates.py: dtype, layout, the largest MMA atom,
tiles large first) plus: dx not empty but its reduction (taps x k/g over dy's pixels) empty is
EMPTY: k = 0, or a window that does not fit the padded input (no dy pixel). The vector width
divides both contiguous channel runs (c/g of w and dx, k/g of dy: their gcd) and the alignment.
The GEMM grid is M = n * h * w dx pixels by N = c/g channels per group. C++ twin:
rocke_library/kernels/conv/conv_igemm_dgrad/candidates.hpp.
"""

from __future__ import annotations

import math
from typing import Any

from rocke.arch import ArchTarget

from ...candidate import Candidate, spec_kv
from ..igemm_candidates import GemmGrid, add_empty, gemm_candidates, hook_reasons, rejected
from .spec import ConvIgemmDgradSpec

FAMILY = ConvIgemmDgradSpec.FAMILY


def candidates(problem: Any, target: ArchTarget) -> list[Candidate]:
    reasons, details = hook_reasons(problem, FAMILY)
    add_empty(problem, "k", reasons, details)
    tiles = gemm_candidates(problem, target, reasons, details,
                            math.gcd(problem.c // problem.g, problem.k // problem.g), {},
                            GemmGrid(problem.n * problem.h * problem.w, problem.c // problem.g, problem.g))
    if reasons:
        return rejected(FAMILY, reasons, details)
    return [Candidate(FAMILY, spec_kv(fields), sizes) for fields, sizes in tiles]
