"""The conv_igemm_fwd family: implicit-GEMM forward convolution (grouped, depthwise as g = c = k) on the
tile-GEMM main loop, NHWC x KYXC -> NHWK."""

from .builder import FAULTS, TapOperand, build
from .contract import PROBLEM_KEYS, launch
from .plan import plan_conv, tile_shape
from .reference import NUMPY_DTYPES, reference
from .spec import ConvIgemmFwdSpec

__all__ = [
    "FAULTS",
    "NUMPY_DTYPES",
    "PROBLEM_KEYS",
    "ConvIgemmFwdSpec",
    "TapOperand",
    "build",
    "launch",
    "plan_conv",
    "reference",
    "tile_shape",
]
