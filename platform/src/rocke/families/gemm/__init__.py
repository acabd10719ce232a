"""The gemm family: C = alpha * A @ B (+ bias) on MFMA (gfx942, gfx950) and WMMA (gfx1100, gfx1201)."""

from .builder import FAULTS, build
from .contract import PROBLEM_KEYS, launch
from .plan import GemmPlan, OperandPlan, plan_gemm
from .reference import NUMPY_DTYPES, reference, to_memory
from .spec import INPUT_DTYPES, LAYOUTS, GemmSpec

__all__ = [
    "FAULTS",
    "INPUT_DTYPES",
    "LAYOUTS",
    "NUMPY_DTYPES",
    "PROBLEM_KEYS",
    "GemmPlan",
    "GemmSpec",
    "OperandPlan",
    "build",
    "launch",
    "plan_gemm",
    "reference",
    "to_memory",
]
