"""numpy reference of the img2col family, written from the definition with explicit tap loops."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .spec import Img2colSpec


def reference(spec: Img2colSpec, inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """{"col": [g][N*Ho*Wo][filter_y*filter_x*Cg]} from inputs["input"] (N x H x W x C) and
    inputs["g"]; padding reads zero. A pure copy, so the result is exact in the input dtype."""
    x = np.asarray(inputs["input"])
    g = int(inputs["g"])
    n, h, w, c = x.shape
    cg = c // g
    eh, ew = spec.dil_h * (spec.filter_y - 1) + 1, spec.dil_w * (spec.filter_x - 1) + 1
    ho = (h + 2 * spec.pad_h - eh) // spec.stride_h + 1
    wo = (w + 2 * spec.pad_w - ew) // spec.stride_w + 1
    padded = np.zeros((n, h + 2 * spec.pad_h, w + 2 * spec.pad_w, c), x.dtype)
    padded[:, spec.pad_h:spec.pad_h + h, spec.pad_w:spec.pad_w + w, :] = x
    col = np.zeros((g, n, ho, wo, spec.filter_y, spec.filter_x, cg), x.dtype)
    for ty in range(spec.filter_y):
        for tx in range(spec.filter_x):
            r0, c0 = ty * spec.dil_h, tx * spec.dil_w
            window = padded[:, r0:r0 + spec.stride_h * (ho - 1) + 1:spec.stride_h,
                            c0:c0 + spec.stride_w * (wo - 1) + 1:spec.stride_w, :]
            for grp in range(g):
                col[grp, :, :, :, ty, tx, :] = window[..., grp * cg:(grp + 1) * cg]
    return {"col": col.reshape(g, n * ho * wo, spec.filter_y * spec.filter_x * cg)}
