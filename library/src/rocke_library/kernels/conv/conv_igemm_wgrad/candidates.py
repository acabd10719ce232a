"""Dispatch hook of conv_igemm_wgrad: its candidates for a conv_wgrad problem, in order.

The shared implicit-GEMM rules (conv/igemm_candidates.py: dtype, layout, the largest MMA atom,
tiles large first) plus: dw not empty but its reduction (over n x Ho x Wo) empty is EMPTY: n = 0,
or a window that does not fit the padded input. The vector width divides both contiguous channel
runs (c/g of x, k/g of dy: their gcd) and the alignment. split_k is the problem's
(`problem.split_k(target)`, the conv_wgrad kind's rule of problem size and cu_count): with
split_k > 1 a candidate is two launches, the main kernel adding f32 partial sums into the
workspace its contract asks to zero first, then the convert kernel (convert=1, same spec
otherwise) writing dw from that workspace. The GEMM grid is M = k/g by N = taps * c/g per group
and split. C++ twin: rocke_library/kernels/conv/conv_igemm_wgrad/candidates.hpp.
"""

from __future__ import annotations

import math
from typing import Any

from rocke.arch import ArchTarget

from ...candidate import Candidate, spec_kv
from ..igemm_candidates import GemmGrid, add_empty, gemm_candidates, hook_reasons, rejected
from .spec import ConvIgemmWgradSpec

FAMILY = ConvIgemmWgradSpec.FAMILY


def candidates(problem: Any, target: ArchTarget) -> list[Candidate]:
    reasons, details = hook_reasons(problem, FAMILY)
    add_empty(problem, "n", reasons, details)
    split_k = problem.split_k(target)
    tiles = gemm_candidates(problem, target, reasons, details,
                            math.gcd(problem.c // problem.g, problem.k // problem.g),
                            {"convert": False, "split_k": split_k},
                            GemmGrid(problem.k // problem.g, problem.taps * (problem.c // problem.g),
                                     problem.g * split_k))
    if reasons:
        return rejected(FAMILY, reasons, details)
    out = []
    for fields, sizes in tiles:
        then = (Candidate(FAMILY, spec_kv({**fields, "convert": True}), sizes),) if split_k > 1 else ()
        out.append(Candidate(FAMILY, spec_kv(fields), sizes, then=then))
    return out
