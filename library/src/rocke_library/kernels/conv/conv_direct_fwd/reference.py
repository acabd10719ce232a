"""numpy reference of conv_direct_fwd, written from the definition: zero padding, one strided
window per tap and an einsum over the group's channels, all in binary64, one rounding at the end."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import ml_dtypes
import numpy as np

from .spec import ConvDirectFwdSpec

NUMPY_DTYPES = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16), "f32": np.dtype(np.float32)}


def reference(spec: ConvDirectFwdSpec, inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """{"output": N x Ho x Wo x K in dtype} from inputs["input"] (N x H x W x C), inputs["weight"]
    (K x Y x X x C/g), inputs["g"] (groups; ignored when depthwise, where it is C) and, with
    spec.bias, inputs["bias"] (K)."""
    x = np.asarray(inputs["input"]).astype(np.float64)
    wt = np.asarray(inputs["weight"]).astype(np.float64)
    n, h, w, c = x.shape
    k = wt.shape[0]
    g = c if spec.depthwise else int(inputs["g"])
    cg, kg = c // g, k // g
    ph, pw = spec.pad_h, spec.pad_w
    ho = (h + 2 * ph - spec.dil_h * (spec.filter_y - 1) - 1) // spec.stride_h + 1
    wo = (w + 2 * pw - spec.dil_w * (spec.filter_x - 1) - 1) // spec.stride_w + 1
    padded = np.zeros((n, h + 2 * ph, w + 2 * pw, c))
    padded[:, ph:ph + h, pw:pw + w, :] = x
    grouped_w = wt.reshape(g, kg, spec.filter_y, spec.filter_x, cg)
    out = np.zeros((n, ho, wo, g, kg))
    for ty in range(spec.filter_y):
        for tx in range(spec.filter_x):
            r0, c0 = ty * spec.dil_h, tx * spec.dil_w
            window = padded[:, r0:r0 + spec.stride_h * (ho - 1) + 1:spec.stride_h,
                            c0:c0 + spec.stride_w * (wo - 1) + 1:spec.stride_w, :]
            out += np.einsum("nhwgc,gkc->nhwgk", window.reshape(n, ho, wo, g, cg), grouped_w[:, :, ty, tx, :])
    out = out.reshape(n, ho, wo, k)
    if spec.bias:
        out = out + np.asarray(inputs["bias"]).astype(np.float64)
    if spec.relu:
        out = np.maximum(out, 0.0)
    return {"output": out.astype(NUMPY_DTYPES[spec.dtype])}
