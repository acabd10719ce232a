"""numpy reference of conv_igemm_dgrad, written from the definition of the forward convolution
rather than from the kernel's GEMM view: every output pixel (n, oh, ow) of every tap scatters
dy[n, oh, ow, :] @ w[:, ty, tx, :] (per group) into the input pixel it read,
(oh*stride_h - pad_h + ty*dil_h, ow*stride_w - pad_w + tx*dil_w), in a zero-padded float64 dx; the
padding is cropped at the end and rounded once to the dtype."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..conv_direct_fwd.reference import NUMPY_DTYPES
from ..geometry import WindowSpec, output_hw
from .spec import ConvIgemmDgradSpec


def dgrad_f64(spec: WindowSpec, dy: np.ndarray, wt: np.ndarray, h: int, w: int, g: int) -> np.ndarray:
    """dx (N x H x W x C, float64) from dy (N x Ho x Wo x K) and w (K x Y x X x C/g)."""
    dy = np.asarray(dy).astype(np.float64)
    wt = np.asarray(wt).astype(np.float64)
    n, ho, wo, k = dy.shape
    cg = wt.shape[3]
    kg = k // g
    assert (ho, wo) == output_hw(spec, h, w), "dy does not have the output size of an h x w input"
    ph, pw, sh, sw = spec.pad_h, spec.pad_w, spec.stride_h, spec.stride_w
    padded = np.zeros((n, h + 2 * ph, w + 2 * pw, g, cg))
    grouped_dy = dy.reshape(n, ho, wo, g, kg)
    grouped_w = wt.reshape(g, kg, spec.filter_y, spec.filter_x, cg)
    for ty in range(spec.filter_y):
        for tx in range(spec.filter_x):
            r0, c0 = ty * spec.dil_h, tx * spec.dil_w
            # the input pixels tap (ty, tx) of every output pixel read: rows r0, r0 + sh, ...
            padded[:, r0:r0 + sh * (ho - 1) + 1:sh, c0:c0 + sw * (wo - 1) + 1:sw] += np.einsum(
                "nhwgk,gkc->nhwgc", grouped_dy, grouped_w[:, :, ty, tx, :])
    return padded[:, ph:ph + h, pw:pw + w].reshape(n, h, w, g * cg)


def reference(spec: ConvIgemmDgradSpec, inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """{"dx": N x H x W x C in spec.dtype} from inputs["dy"] (N x Ho x Wo x K), inputs["weight"]
    (K x Y x X x C/g), inputs["h"], inputs["w"] (the input size) and inputs["g"] (groups)."""
    dx = dgrad_f64(spec, inputs["dy"], inputs["weight"], int(inputs["h"]), int(inputs["w"]), int(inputs["g"]))
    return {"dx": dx.astype(NUMPY_DTYPES[spec.dtype])}
