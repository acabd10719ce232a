"""numpy reference of the gemm family and the memory layout of its operands."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import ml_dtypes
import numpy as np

from .spec import GemmSpec

NUMPY_DTYPES = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16), "f32": np.dtype(np.float32)}


def to_memory(matrix: np.ndarray, layout: str) -> np.ndarray:
    """The flat buffer holding a matrix in `layout` ("row" or "col")."""
    return np.ascontiguousarray(matrix if layout == "row" else matrix.T).reshape(-1)


def reference(spec: GemmSpec, inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """{"c": alpha * a @ b (+ bias)} in c_dtype, computed in binary64 from the logical matrices
    inputs["a"] (M x K), inputs["b"] (K x N), inputs["bias"] (N, when spec.bias) and inputs["alpha"]."""
    a = np.asarray(inputs["a"]).astype(np.float64)
    b = np.asarray(inputs["b"]).astype(np.float64)
    c = float(inputs["alpha"]) * (a @ b)
    if spec.bias:
        c = c + np.asarray(inputs["bias"]).astype(np.float64)[None, :]
    return {"c": c.astype(NUMPY_DTYPES[spec.c_dtype])}
