"""The elementwise spec: out = op(x[, y]) over n elements of one storage dtype, computed in f32."""

from __future__ import annotations

from dataclasses import dataclass

from rocke.families.spec import Spec
from rocke.helpers import FLOAT_DTYPES, elem_bytes

BINARY_OPS = ("add", "sub", "mul", "max")
UNARY_OPS = ("relu", "silu", "gelu_tanh")
OPS = BINARY_OPS + UNARY_OPS
VEC_WIDTHS = (1, 2, 4, 8)
MAX_ACCESS_BYTES = 16  # the widest buffer access (dwordx4)
BLOCK_STEP = 32  # the smaller wave size; build() also requires a multiple of the arch's wave size
MAX_BLOCK = 1024


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
        if self.dtype not in FLOAT_DTYPES:
            self.fail("dtype", f"must be one of {', '.join(FLOAT_DTYPES)}")
        if self.vec not in VEC_WIDTHS:
            self.fail("vec", "must be 1, 2, 4 or 8")
        most = MAX_ACCESS_BYTES // elem_bytes(self.dtype)
        if self.vec > most:
            self.fail("vec", f"one {self.dtype} access holds at most {most} elements ({MAX_ACCESS_BYTES} bytes)")
        if self.block < BLOCK_STEP or self.block > MAX_BLOCK or self.block % BLOCK_STEP != 0:
            self.fail("block", f"must be a multiple of {BLOCK_STEP} in {BLOCK_STEP}..{MAX_BLOCK}")

    @property
    def inputs(self) -> tuple[str, ...]:
        """Input buffer names, in kernel argument order."""
        return ("x", "y") if self.op in BINARY_OPS else ("x",)
