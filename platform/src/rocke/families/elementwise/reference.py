"""numpy reference of the elementwise family: exact math in binary64, one rounding to storage."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import ml_dtypes
import numpy as np

from .spec import ElementwiseSpec

NUMPY_DTYPES = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16), "f32": np.dtype(np.float32)}


def reference(spec: ElementwiseSpec, inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """{"out": op(x[, y])} in spec.dtype, from the arrays inputs["x"] (and inputs["y"])."""
    x = np.asarray(inputs["x"]).astype(np.float64)
    y = np.asarray(inputs["y"]).astype(np.float64) if "y" in spec.inputs else None
    with np.errstate(over="ignore"):
        if spec.op == "add":
            out = x + y
        elif spec.op == "sub":
            out = x - y
        elif spec.op == "mul":
            out = x * y
        elif spec.op == "max":
            out = np.maximum(x, y)
        elif spec.op == "relu":
            out = np.maximum(x, 0.0)
        elif spec.op == "silu":
            out = x / (1.0 + np.exp(-x))
        else:
            out = 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x**3)))
    return {"out": out.astype(NUMPY_DTYPES[spec.dtype])}
