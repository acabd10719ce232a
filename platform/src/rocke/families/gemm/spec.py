"""The gemm spec: C = alpha * A @ B (+ bias over N), one workgroup per BM x BN tile of C."""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import MmaOp, mma_op
from rocke.families.spec import Spec, check_mma_atom
from rocke.helpers import FLOAT_DTYPES

INPUT_DTYPES = ("f16", "bf16")
LAYOUTS = ("row", "col")
MAX_WAVES_PER_DIM = 32
MAX_TILE_MN = 512
MAX_TILE_K = 256
MAX_LDS_PAD = 64


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
        for field in ("wm", "wn"):
            if not 1 <= getattr(self, field) <= MAX_WAVES_PER_DIM:
                self.fail(field, f"must be in 1..{MAX_WAVES_PER_DIM}")
        for field, most in (("bm", MAX_TILE_MN), ("bn", MAX_TILE_MN), ("bk", MAX_TILE_K)):
            if not 1 <= getattr(self, field) <= most:
                self.fail(field, f"must be in 1..{most}")
        if self.bm % (self.wm * op.m) != 0:
            self.fail("bm", f"must be a multiple of wm * atom m = {self.wm} * {op.m} ({op.id})")
        if self.bn % (self.wn * op.n) != 0:
            self.fail("bn", f"must be a multiple of wn * atom n = {self.wn} * {op.n} ({op.id})")
        if self.bk % op.k != 0:
            self.fail("bk", f"must be a multiple of atom k = {op.k} ({op.id})")
        if not 0 <= self.lds_pad <= MAX_LDS_PAD:
            self.fail("lds_pad", f"must be in 0..{MAX_LDS_PAD}")

    def atom(self) -> MmaOp:
        """The MMA catalog op each wave repeats."""
        return mma_op(self.op_id)

    @property
    def threads(self) -> int:
        """Threads per workgroup: wm * wn waves of the atom's wave size."""
        return self.wm * self.wn * self.atom().wave_size
