"""The elementwise spec: out = op(x[, y]) over n elements of one storage dtype, computed in f32."""

from __future__ import annotations

from dataclasses import dataclass

from rocke.families.spec import Spec, check_dtype, check_threads, check_vec

BINARY_OPS = ("add", "sub", "mul", "max")
UNARY_OPS = ("relu", "silu", "gelu_tanh")
OPS = BINARY_OPS + UNARY_OPS


@dataclass(frozen=True)
class ElementwiseSpec(Spec):
    """block: threads per workgroup; dtype: storage of inputs and output; op: the operation;
    vec: consecutive elements per thread (one vector access per operand)."""

    FAMILY = "elementwise"

    block: int
    dtype: str
    op: str
    vec: int

    def check(self) -> None:
        if self.op not in OPS:
            self.fail("op", f"must be one of {', '.join(OPS)}")
        check_dtype(self)
        check_vec(self)
        check_threads(self, "block", self.block)

    @property
    def inputs(self) -> tuple[str, ...]:
        """Input buffer names, in kernel argument order."""
        return ("x", "y") if self.op in BINARY_OPS else ("x",)
