"""The convolution weight-gradient problem: dw[K, Y, X, C/g] = sum over N, Ho, Wo of dy x x.
Fields and rules: those of conv_fwd (bias and relu must be 0). conv_igemm_wgrad serves it; its
hook takes the split-K factor from `problem.split_k(target)` (the rule below: dispatch decides it,
kernels do not import dispatch). C++ twin: rocke_library/dispatch/conv_wgrad.hpp.

Split-K: the GEMM view of wgrad is M = K/g, N = Y*X*C/g per group, reduced over N*Ho*Wo. With
tiles of SPLIT_TILE x SPLIT_TILE, `tiles` = g * ceil(M / tile) * ceil(N / tile) workgroups fill
few of the arch's CUs when the reduction is long: split_k = min(ceil(SPLIT_WAVES * cu_count /
tiles), reduction // SPLIT_MIN_REDUCTION, MAX_SPLIT_K), at least 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import ArchTarget
from rocke.helpers import ceil_div

from .conv_fwd import ConvProblem

SPLIT_TILE = 64  # output tile edge of the wgrad GEMM view
SPLIT_WAVES = 2  # workgroups wanted per CU
SPLIT_MIN_REDUCTION = 256  # reduction elements each split keeps at least
MAX_SPLIT_K = 64


@dataclass(frozen=True)
class ConvWgradProblem(ConvProblem):
    KIND = "conv_wgrad"
    FAMILY = "conv_wgrad problem"

    def check(self) -> None:
        super().check()
        for field in ("bias", "relu"):
            if getattr(self, field):
                self.fail(field, "must be 0 (a gradient problem has no epilogue)")

    def dead(self) -> bool:
        """Nothing to write: dw[K, Y, X, C/g] is empty."""
        return self.k * self.taps * (self.c // self.g) == 0

    def split_k(self, target: ArchTarget) -> int:
        """The split-K factor on target (split_k below)."""
        return split_k(self, target)


def split_k(problem: ConvWgradProblem, target: ArchTarget) -> int:
    """The split-K factor of a wgrad problem on target (module docstring)."""
    ho, wo = problem.output_hw()
    reduction = problem.n * ho * wo
    m, n = problem.k // problem.g, problem.taps * (problem.c // problem.g)
    tiles = max(1, problem.g * ceil_div(m, SPLIT_TILE) * ceil_div(n, SPLIT_TILE))
    return max(1, min(ceil_div(SPLIT_WAVES * target.cu_count, tiles), reduction // SPLIT_MIN_REDUCTION, MAX_SPLIT_K))
