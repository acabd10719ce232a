"""The float64 references of conv_igemm_dgrad and conv_igemm_wgrad, checked against a scalar loop
over the forward convolution's definition: both are its adjoints, so for every x, w, dy
<conv(x, w), dy> = <x, dgrad(dy, w)> = <w, wgrad(x, dy)>, and each dgrad / wgrad element equals the
sum the loop accumulates for it. Shapes cover padding, stride 2 (input pixels no tap reaches),
dilation 2 and groups; breaking the stride must break the identity (a negative control)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rocke.gates import conformance as kit
from rocke_library.kernels.conv.conv_igemm_dgrad.reference import dgrad_f64
from rocke_library.kernels.conv.conv_igemm_dgrad.spec import ConvIgemmDgradSpec
from rocke_library.kernels.conv.conv_igemm_wgrad.reference import wgrad_f64
from rocke_library.kernels.conv.geometry import output_hw

BASE = ("bk=32 bm=64 bn=64 dil_h=1 dil_w=1 double_buffer=1 dtype=f16 filter_x=3 filter_y=3 lds_pad=8 "
        "op_id=mfma_f32_32x32x8_f16 pad_h=1 pad_w=1 stride_h=1 stride_w=1 vec=8 wm=2 wn=2")

WINDOWS = [  # (filter_y, filter_x, stride, pad_h, pad_w, dilation, groups)
    (3, 3, 1, 1, 1, 1, 1),
    (3, 3, 2, 1, 1, 1, 2),
    (1, 1, 2, 0, 0, 1, 1),
    (3, 3, 1, 2, 2, 2, 3),
    (5, 3, 2, 2, 0, 1, 1),
    (1, 3, 3, 0, 1, 2, 2),
]


def window_spec(fy: int, fx: int, stride: int, ph: int, pw: int, dil: int) -> ConvIgemmDgradSpec:
    return ConvIgemmDgradSpec.from_kv(kit.with_changes(BASE, filter_y=fy, filter_x=fx, stride_h=stride,
                                                       stride_w=stride, pad_h=ph, pad_w=pw, dil_h=dil, dil_w=dil))


def forward_loops(spec: ConvIgemmDgradSpec, x: np.ndarray, w: np.ndarray, g: int) -> np.ndarray:
    """y = conv(x, w) by a scalar loop over the definition (float64)."""
    n, h, wd, c = x.shape
    k = w.shape[0]
    cg, kg = c // g, k // g
    ho, wo = output_hw(spec, h, wd)
    y = np.zeros((n, ho, wo, k))
    for b in range(n):
        for oh in range(ho):
            for ow in range(wo):
                for oc in range(k):
                    grp = oc // kg
                    total = 0.0
                    for ty in range(spec.filter_y):
                        for tx in range(spec.filter_x):
                            ih = oh * spec.stride_h - spec.pad_h + ty * spec.dil_h
                            iw = ow * spec.stride_w - spec.pad_w + tx * spec.dil_w
                            if 0 <= ih < h and 0 <= iw < wd:
                                total += float(np.dot(x[b, ih, iw, grp * cg:(grp + 1) * cg], w[oc, ty, tx, :]))
                    y[b, oh, ow, oc] = total
    return y


def problem(spec: ConvIgemmDgradSpec, g: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    n, h, w, c, k = 2, 7, 6, 2 * g, 3 * g
    ho, wo = output_hw(spec, h, w)
    x = rng.standard_normal((n, h, w, c))
    wt = rng.standard_normal((k, spec.filter_y, spec.filter_x, c // g))
    dy = rng.standard_normal((n, ho, wo, k))
    return x, wt, dy


@pytest.mark.parametrize("window", WINDOWS, ids=lambda win: "x".join(map(str, win)))
def test_dgrad_and_wgrad_are_the_adjoints_of_the_forward_loop(window: tuple[int, ...]) -> None:
    *geometry, g = window
    spec = window_spec(*geometry)
    x, wt, dy = problem(spec, g, seed=sum(window))
    y = forward_loops(spec, x, wt, g)
    dx = dgrad_f64(spec, dy, wt, x.shape[1], x.shape[2], g)
    dw = wgrad_f64(spec, x, dy, g)
    assert dx.shape == x.shape and dw.shape == wt.shape
    inner = float(np.sum(y * dy))
    assert np.isclose(float(np.sum(x * dx)), inner, rtol=1e-12, atol=1e-9)
    assert np.isclose(float(np.sum(wt * dw)), inner, rtol=1e-12, atol=1e-9)
    # elementwise: d<y, dy>/dx and d<y, dy>/dw of the linear loop, one unit input at a time
    for index in [(0, 0, 0, 0), (1, 3, 2, x.shape[3] - 1), (1, x.shape[1] - 1, x.shape[2] - 1, 0)]:
        unit = np.zeros_like(x)
        unit[index] = 1.0
        assert np.isclose(float(np.sum(forward_loops(spec, unit, wt, g) * dy)), dx[index], atol=1e-12)
    for index in [(0, 0, 0, 0), (wt.shape[0] - 1, spec.filter_y - 1, spec.filter_x - 1, wt.shape[3] - 1)]:
        unit = np.zeros_like(wt)
        unit[index] = 1.0
        assert np.isclose(float(np.sum(forward_loops(spec, x, unit, g) * dy)), dw[index], atol=1e-12)


def test_pixels_no_tap_reaches_get_exactly_zero() -> None:
    spec = window_spec(1, 1, 2, 0, 0, 1)
    _, wt, dy = problem(spec, 1, seed=5)
    dx = dgrad_f64(spec, dy, wt, 7, 6, 1)
    assert np.all(dx[:, 1::2] == 0) and np.all(dx[:, :, 1::2] == 0)
    assert np.all(dx[:, ::2, ::2] != 0)


def test_a_stride_ignored_breaks_the_identity() -> None:
    """Negative control: the check above can fail."""
    spec = window_spec(3, 3, 2, 1, 1, 1)
    x, wt, dy = problem(spec, 1, seed=9)
    inner = float(np.sum(forward_loops(spec, x, wt, 1) * dy))
    ignored = dataclasses.replace(spec, stride_h=1, stride_w=1)
    h, w = x.shape[1], x.shape[2]
    ho, wo = dy.shape[1], dy.shape[2]
    # the stride-1 dgrad of the top-left ho x wo block of outputs, as a kernel ignoring the stride would compute
    big_dy = np.zeros((dy.shape[0], *output_hw(ignored, h, w), dy.shape[3]))
    big_dy[:, :ho, :wo] = dy
    wrong = dgrad_f64(ignored, big_dy, wt, h, w, 1)
    assert not np.isclose(float(np.sum(x * wrong)), inner, rtol=1e-6)
