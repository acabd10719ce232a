"""The gemm spec: C = alpha * A @ B (+ bias over N), one workgroup per BM x BN tile of C."""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import MmaOp, mma_op
from rocke.families.spec import (
    MAX_LDS_PAD,
    MAX_TILE_K,
    MAX_TILE_MN,
    MAX_WAVES_PER_DIM,
    Spec,
    check_mma_atom,
    check_tile_gemm,
)
from rocke.helpers import FLOAT_DTYPES

INPUT_DTYPES = ("f16", "bf16")
LAYOUTS = ("row", "col")
__all__ = ["INPUT_DTYPES", "LAYOUTS", "MAX_LDS_PAD", "MAX_TILE_K", "MAX_TILE_MN", "MAX_WAVES_PER_DIM", "GemmSpec"]


@dataclass(frozen=True)
class GemmSpec(Spec):
    """A is M x K, B is K x N, C is M x N row-major; *_layout says how A and B are stored
    ("row": consecutive elements of a row are adjacent, "col": of a column). bm x bn x bk is the
    workgroup tile, wm x wn the grid of waves over it, op_id the MMA atom each wave repeats.
    lds_pad adds elements to every LDS line; double_buffer stages the next K tile while the MMAs
    read the current one. bias adds a length-N vector (of c_dtype) to every row."""

    FAMILY = "gemm"

    a_dtype: str
    a_layout: str
    b_dtype: str
    b_layout: str
    bias: bool
    bk: int
    bm: int
    bn: int
    c_dtype: str
    double_buffer: bool
    lds_pad: int
    op_id: str
    wm: int
    wn: int

    def check(self) -> None:
        if self.a_dtype not in INPUT_DTYPES:
            self.fail("a_dtype", f"must be one of {', '.join(INPUT_DTYPES)}")
        if self.b_dtype != self.a_dtype:
            self.fail("b_dtype", f"must equal a_dtype={self.a_dtype} (one MMA input type)")
        if self.c_dtype not in FLOAT_DTYPES:
            self.fail("c_dtype", f"must be one of {', '.join(FLOAT_DTYPES)}")
        if self.a_layout not in LAYOUTS:
            self.fail("a_layout", f"must be one of {', '.join(LAYOUTS)}")
        if self.b_layout not in LAYOUTS:
            self.fail("b_layout", f"must be one of {', '.join(LAYOUTS)}")
        op = check_mma_atom(self, "a_dtype", self.a_dtype)  # b_dtype equals a_dtype (checked above)
        check_tile_gemm(self, op)

    def atom(self) -> MmaOp:
        """The MMA catalog op each wave repeats."""
        return mma_op(self.op_id)

    @property
    def threads(self) -> int:
        """Threads per workgroup: wm * wn waves of the atom's wave size."""
        return self.wm * self.wn * self.atom().wave_size
