"""The conv_direct_fwd family: direct forward convolution (grouped and depthwise), NHWC x KYXC -> NHWK."""

from .builder import FAULTS, build, check_arch, store_width
from .contract import DEPTHWISE_KEYS, PROBLEM_KEYS, launch, problem_keys
from .reference import NUMPY_DTYPES, reference
from .spec import ConvDirectFwdSpec

__all__ = [
    "DEPTHWISE_KEYS",
    "FAULTS",
    "NUMPY_DTYPES",
    "PROBLEM_KEYS",
    "ConvDirectFwdSpec",
    "build",
    "check_arch",
    "launch",
    "problem_keys",
    "reference",
    "store_width",
]
