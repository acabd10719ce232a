"""numpy reference of conv_igemm_wgrad, written from the definition of the forward convolution
rather than from the kernel's GEMM view: for every tap (ty, tx), dw[:, ty, tx, :] (per group) is the
sum over the output pixels (n, oh, ow) of dy[n, oh, ow, :] (outer) the input pixel that tap read,
x[n, oh*stride_h - pad_h + ty*dil_h, ow*stride_w - pad_w + tx*dil_w, :] of a zero-padded x, all in
float64, rounded once to the dtype."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..conv_direct_fwd.reference import NUMPY_DTYPES
from ..geometry import WindowSpec, output_hw
from .spec import ConvIgemmWgradSpec


def wgrad_f64(spec: WindowSpec, x: np.ndarray, dy: np.ndarray, g: int) -> np.ndarray:
    """dw (K x Y x X x C/g, float64) from x (N x H x W x C) and dy (N x Ho x Wo x K)."""
    x = np.asarray(x).astype(np.float64)
    dy = np.asarray(dy).astype(np.float64)
    n, h, w, c = x.shape
    k = dy.shape[3]
    cg, kg = c // g, k // g
    ho, wo = output_hw(spec, h, w)
    assert dy.shape[1:3] == (ho, wo), "dy does not have the output size of x"
    ph, pw, sh, sw = spec.pad_h, spec.pad_w, spec.stride_h, spec.stride_w
    padded = np.zeros((n, h + 2 * ph, w + 2 * pw, c))
    padded[:, ph:ph + h, pw:pw + w, :] = x
    grouped_dy = dy.reshape(n, ho, wo, g, kg)
    dw = np.zeros((g, kg, spec.filter_y, spec.filter_x, cg))
    for ty in range(spec.filter_y):
        for tx in range(spec.filter_x):
            r0, c0 = ty * spec.dil_h, tx * spec.dil_w
            window = padded[:, r0:r0 + sh * (ho - 1) + 1:sh, c0:c0 + sw * (wo - 1) + 1:sw, :]
            dw[:, :, ty, tx, :] = np.einsum("nhwgk,nhwgc->gkc", grouped_dy, window.reshape(n, ho, wo, g, cg))
    return dw.reshape(k, spec.filter_y, spec.filter_x, cg)


def reference(spec: ConvIgemmWgradSpec, inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """{"dw": K x Y x X x C/g in spec.dtype} from inputs["input"] (N x H x W x C), inputs["dy"]
    (N x Ho x Wo x K) and inputs["g"] (groups)."""
    dw = wgrad_f64(spec, inputs["input"], inputs["dy"], int(inputs["g"]))
    return {"dw": dw.astype(NUMPY_DTYPES[spec.dtype])}
