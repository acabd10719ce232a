"""The elementwise family: vectorized unary and binary ops over f16/bf16/f32 with f32 compute."""

from rocke.families.spec import VEC_WIDTHS

from .builder import FAULTS, apply_op, build, check_arch
from .contract import PROBLEM_KEYS, launch
from .reference import NUMPY_DTYPES, reference
from .spec import BINARY_OPS, OPS, UNARY_OPS, ElementwiseSpec

__all__ = [
    "BINARY_OPS",
    "FAULTS",
    "NUMPY_DTYPES",
    "OPS",
    "PROBLEM_KEYS",
    "UNARY_OPS",
    "VEC_WIDTHS",
    "ElementwiseSpec",
    "apply_op",
    "build",
    "check_arch",
    "launch",
    "reference",
]
