"""The convolution data-gradient problem: dx[N, H, W, C] from dy[N, Ho, Wo, K] and w[K, Y, X, C/g].
Fields and rules: those of conv_fwd (bias and relu must be 0: a gradient has neither).
conv_igemm_dgrad serves it. C++ twin: rocke_library/dispatch/conv_dgrad.hpp.
"""

from __future__ import annotations

from dataclasses import dataclass

from .conv_fwd import ConvProblem


@dataclass(frozen=True)
class ConvDgradProblem(ConvProblem):
    KIND = "conv_dgrad"
    FAMILY = "conv_dgrad problem"

    def check(self) -> None:
        super().check()
        for field in ("bias", "relu"):
            if getattr(self, field):
                self.fail(field, "must be 0 (a gradient problem has no epilogue)")

    def dead(self) -> bool:
        """Nothing to write: dx[N, H, W, C] is empty."""
        return self.n * self.h * self.w * self.c == 0
