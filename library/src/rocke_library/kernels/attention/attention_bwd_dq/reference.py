"""float64 reference of attention_bwd_dq: dQ of the attention backward, from the backward
reference written from the formulas (attention_bwd_main/reference.py: dQ_h = scale * dS K with
dS = P * (dP - D)), not from the kernels."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..attention_bwd_main.reference import NUMPY_DTYPES, backward, seen

__all__ = ["NUMPY_DTYPES", "backward", "reference", "seen"]


def reference(spec: Any, inputs: Mapping[str, Any]) -> dict[str, list[np.ndarray]]:
    """{"dq", "lse", "delta": one array per sequence} in float64 from inputs["q"], inputs["k"],
    inputs["v"], inputs["do"] (lists of per-sequence [S, H, D] arrays) and inputs["scale"]."""
    out: dict[str, list[np.ndarray]] = {"dq": [], "lse": [], "delta": []}
    for q, k, v, do in zip(inputs["q"], inputs["k"], inputs["v"], inputs["do"], strict=True):
        result = backward(spec.mask, q, k, v, do, float(inputs["scale"]))
        for name in out:
            out[name].append(result[name])
    return out
