"""The conv_igemm_dgrad family: the data gradient of a convolution as an implicit GEMM, dx (NHWC)
from dy (NHWK) and w (KYXC), grouped, any stride, padding and dilation."""

from .contract import PROBLEM_KEYS, launch
from .reference import NUMPY_DTYPES, dgrad_f64, reference
from .spec import ConvIgemmDgradSpec

__all__ = ["NUMPY_DTYPES", "PROBLEM_KEYS", "ConvIgemmDgradSpec", "dgrad_f64", "launch", "reference"]
