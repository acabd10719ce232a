"""The img2col family: an NHWC input unrolled into a convolution's GEMM column matrix."""

from .builder import FAULTS, build, check_arch
from .contract import PROBLEM_KEYS, launch
from .reference import reference
from .spec import Img2colSpec

__all__ = ["FAULTS", "PROBLEM_KEYS", "Img2colSpec", "build", "check_arch", "launch", "reference"]
