"""The conv_igemm_wgrad family: the weight gradient of a convolution as an implicit GEMM, dw (KYXC)
from x (NHWC) and dy (NHWK), grouped, split-K with f32 atomics and a convert kernel."""

from .contract import PROBLEM_KEYS, launch
from .reference import NUMPY_DTYPES, reference, wgrad_f64
from .spec import ConvIgemmWgradSpec

__all__ = ["NUMPY_DTYPES", "PROBLEM_KEYS", "ConvIgemmWgradSpec", "launch", "reference", "wgrad_f64"]
