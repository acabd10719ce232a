"""float64 reference of conv_igemm_fwd, written from the definition of a convolution (not as a GEMM):
for every output pixel and every filter tap, the input pixel the tap sees (skipped when it falls in
the padding) times the tap's weights, summed over the group's channels; one rounding at the end."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import ml_dtypes
import numpy as np

from .spec import ConvIgemmFwdSpec

NUMPY_DTYPES = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16)}


def reference(spec: ConvIgemmFwdSpec, inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """{"output": N x Ho x Wo x K in dtype} from inputs["input"] (N x H x W x C), inputs["weight"]
    (K x Y x X x C/g), inputs["g"] (groups) and, with spec.bias, inputs["bias"] (K)."""
    x = np.asarray(inputs["input"]).astype(np.float64)
    wt = np.asarray(inputs["weight"]).astype(np.float64)
    n, h, w, c = x.shape
    k = wt.shape[0]
    g = int(inputs["g"])
    cg, kg = c // g, k // g
    ho = (h + 2 * spec.pad_h - spec.dil_h * (spec.filter_y - 1) - 1) // spec.stride_h + 1
    wo = (w + 2 * spec.pad_w - spec.dil_w * (spec.filter_x - 1) - 1) // spec.stride_w + 1
    out = np.zeros((n, ho, wo, k))
    for oh in range(ho):
        for ow in range(wo):
            for ty in range(spec.filter_y):
                hi = oh * spec.stride_h - spec.pad_h + ty * spec.dil_h
                for tx in range(spec.filter_x):
                    wi = ow * spec.stride_w - spec.pad_w + tx * spec.dil_w
                    if not (0 <= hi < h and 0 <= wi < w):
                        continue  # the tap sees the zero padding
                    for grp in range(g):
                        seen = x[:, hi, wi, grp * cg:(grp + 1) * cg]  # N x C/g
                        taps = wt[grp * kg:(grp + 1) * kg, ty, tx, :]  # K/g x C/g
                        out[:, oh, ow, grp * kg:(grp + 1) * kg] += seen @ taps.T
    if spec.bias:
        out = out + np.asarray(inputs["bias"]).astype(np.float64)
    if spec.relu:
        out = np.maximum(out, 0.0)
    return {"output": out.astype(NUMPY_DTYPES[spec.dtype])}
