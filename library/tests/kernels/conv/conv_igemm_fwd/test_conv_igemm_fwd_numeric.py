"""conv_igemm_fwd on the simulator against its float64 reference (direct loops over the definition of
a convolution): every config of the config file with tails in all three GEMM dimensions and two
groups; dense, many-group and depthwise (g = c = k) problems with padding, stride 2 and dilation 2;
the tolerance against the MMA units' own summation order; agreement with conv_direct_fwd on the same
problems; the reference against a product-by-product evaluation; and negative controls that must fail
the same comparison (padding taps not masked, filter taps walked in the wrong order).

Tolerances (see numerics.py): inputs and weights uniform in [-1, 1]; f16 output within rtol 2e-3 /
atol 1e-3, bf16 within rtol 1.6e-2 / atol 8e-3 (a few output ulps).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from rocke.families.configs import ConfigLine, family_configs
from rocke.gates.conformance import with_changes
from rocke.sim import compare, run
from rocke_library.kernels.conv.conv_direct_fwd import ConvDirectFwdSpec
from rocke_library.kernels.conv.conv_direct_fwd import build as direct_build
from rocke_library.kernels.conv.conv_direct_fwd import launch as direct_launch
from rocke_library.kernels.conv.conv_igemm_fwd import ConvIgemmFwdSpec, reference
from rocke_library.kernels.conv.conv_igemm_fwd.family import FAMILY
from rocke_library.kernels.conv.conv_igemm_fwd.numerics import (
    TOL,
    edge_problem,
    inputs,
    run_case,
    simulate,
)

pytestmark = pytest.mark.numeric

CONFIGS = [line for line in family_configs(FAMILY) if not line.refuse]


@pytest.mark.parametrize("line", CONFIGS, ids=[f"{c.arch}:{c.lineno}" for c in CONFIGS])
def test_config_matches_reference_at_edges(line: ConfigLine) -> None:
    spec = ConvIgemmFwdSpec.from_kv(line.kv)
    result = run_case(spec, line.arch, edge_problem(spec))
    assert result.ok, result.message


BASE = ("bias=1 bk=32 bm=32 bn=32 dil_h=1 dil_w=1 double_buffer=1 dtype=f16 filter_x=3 filter_y=3 lds_pad=8 "
        "op_id=mfma_f32_16x16x16_f16 pad_h=1 pad_w=1 relu=1 stride_h=1 stride_w=1 vec=4 wm=2 wn=2")
WMMA = with_changes(BASE, op_id="wmma_f32_16x16x16_bf16_gfx12", dtype="bf16", double_buffer=0, bias=0, relu=0)
MMA_SYNC = with_changes(BASE, op_id="mma_sync_f32_16x8x16_f16", bn=16)  # the 16 x 8 atom: 2 x 1 per warp
CASES = {
    # (arch, spec kv, problem)
    "dense_s2": ("gfx942", with_changes(BASE, stride_h=2, stride_w=2),
                 {"n": 2, "h": 7, "w": 9, "c": 12, "k": 37, "g": 1}),
    "many_groups_dil2": ("gfx1201", with_changes(WMMA, dil_h=2, dil_w=2, pad_h=2, pad_w=2),
                         {"n": 1, "h": 6, "w": 7, "c": 16, "k": 12, "g": 4}),
    "asymmetric_window": ("gfx942", with_changes(BASE, filter_x=5, filter_y=3, pad_h=1, pad_w=0, stride_w=2, vec=2),
                          {"n": 2, "h": 5, "w": 11, "c": 6, "k": 20, "g": 1}),
    "depthwise": ("gfx1201", with_changes(WMMA, vec=1, bn=16, wn=1, bk=16),
                  {"n": 2, "h": 6, "w": 5, "c": 12, "k": 12, "g": 12}),
    "depthwise_multiplier": ("gfx942", with_changes(BASE, vec=1, bn=16, wn=1, bk=16, stride_h=2, stride_w=2),
                             {"n": 1, "h": 7, "w": 7, "c": 6, "k": 12, "g": 6}),
    "window_sized": ("gfx942", with_changes(BASE, pad_h=0, pad_w=0), {"n": 3, "h": 3, "w": 3, "c": 8, "k": 5, "g": 1}),
    "pointwise_grouped": ("gfx1201", with_changes(WMMA, filter_x=1, filter_y=1, pad_h=0, pad_w=0),
                          {"n": 1, "h": 5, "w": 7, "c": 24, "k": 18, "g": 3}),
    "sm_90_dense_s2": ("sm_90", with_changes(MMA_SYNC, stride_h=2, stride_w=2),
                       {"n": 2, "h": 7, "w": 9, "c": 12, "k": 37, "g": 1}),
    "sm_90_many_groups_dil2": ("sm_90", with_changes(MMA_SYNC, dil_h=2, dil_w=2, pad_h=2, pad_w=2, dtype="bf16",
                                                     op_id="mma_sync_f32_16x8x16_bf16"),
                               {"n": 1, "h": 6, "w": 7, "c": 16, "k": 12, "g": 4}),
    "sm_90_depthwise_bn8": ("sm_90", with_changes(MMA_SYNC, vec=1, bn=8, wn=1, bk=16),
                            {"n": 2, "h": 6, "w": 5, "c": 12, "k": 12, "g": 12}),
    "sm_90_pointwise_grouped": ("sm_90", with_changes(MMA_SYNC, filter_x=1, filter_y=1, pad_h=0, pad_w=0),
                                {"n": 1, "h": 5, "w": 7, "c": 24, "k": 18, "g": 3}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_problems(case: str) -> None:
    arch, kv, problem = CASES[case]
    result = run_case(ConvIgemmFwdSpec.from_kv(kv), arch, problem)
    assert result.ok, result.message


@pytest.mark.parametrize("order", ["forward", "reverse"])
def test_tolerance_leaves_room_for_the_hardware_summation_order(order: str) -> None:
    """The MMA units sum in their own order: the tolerances also hold when every product is added with
    its own f32 rounding, in k order or reverse k order (platform simulator.md, Numerics)."""
    for arch, kv in (("gfx942", BASE), ("gfx1201", WMMA), ("sm_90", MMA_SYNC)):
        spec = ConvIgemmFwdSpec.from_kv(kv)
        result = run_case(spec, arch, edge_problem(spec), mma_order=order)
        assert result.ok, result.message


def _direct_twin(spec: ConvIgemmFwdSpec) -> ConvDirectFwdSpec:
    """conv_direct_fwd with the same window, dtype and epilogue."""
    window = {name: getattr(spec, name) for name in ("dil_h", "dil_w", "filter_x", "filter_y", "pad_h", "pad_w",
                                                     "stride_h", "stride_w", "bias", "relu", "dtype")}
    return ConvDirectFwdSpec(depthwise=False, thread_k=2, thread_p=2, tile_k=16, tile_p=32, vec=spec.vec, **window)


@pytest.mark.parametrize("case", ["dense_s2", "many_groups_dil2", "asymmetric_window"])
def test_agrees_with_conv_direct_fwd(case: str) -> None:
    """The implicit GEMM and the direct convolution, simulated on the same inputs, agree within the
    dtype tolerance (both round once from f32)."""
    arch, kv, problem = CASES[case]
    spec = ConvIgemmFwdSpec.from_kv(kv)
    given = inputs(spec, problem)
    got = simulate(spec, arch, problem, given)
    direct = _direct_twin(spec)
    contract = direct_launch(direct, problem)
    y = np.full(contract.arg("output").bytes // given["input"].dtype.itemsize, 1000.0, given["input"].dtype)
    buffers = {"input": given["input"].reshape(-1), "weight": given["weight"].reshape(-1), "output": y}
    if direct.bias:
        buffers["bias"] = given["bias"]
    run(direct_build(direct, arch), arch=arch, grid=contract.grid, block=contract.block,
        args=contract.ordered_args(buffers), check_races=False)
    rtol, atol = TOL[spec.dtype]
    result = compare(got, y.reshape(got.shape), rtol=rtol, atol=atol, name="conv_igemm_fwd vs conv_direct_fwd")
    assert result.ok, result.message


def _product_by_product(spec: ConvIgemmFwdSpec, x: np.ndarray, wt: np.ndarray, bias: np.ndarray,
                        g: int) -> np.ndarray:
    """The convolution by its definition, one product at a time (binary64)."""
    n, h, w, c = x.shape
    k = wt.shape[0]
    cg, kg = c // g, k // g
    ho = (h + 2 * spec.pad_h - spec.dil_h * (spec.filter_y - 1) - 1) // spec.stride_h + 1
    wo = (w + 2 * spec.pad_w - spec.dil_w * (spec.filter_x - 1) - 1) // spec.stride_w + 1
    out = np.zeros((n, ho, wo, k))
    for img, oh, ow, oc in itertools.product(range(n), range(ho), range(wo), range(k)):
        total = float(bias[oc]) if spec.bias else 0.0
        for ty, tx, ch in itertools.product(range(spec.filter_y), range(spec.filter_x), range(cg)):
            hi = oh * spec.stride_h - spec.pad_h + ty * spec.dil_h
            wi = ow * spec.stride_w - spec.pad_w + tx * spec.dil_w
            if 0 <= hi < h and 0 <= wi < w:
                total += float(x[img, hi, wi, (oc // kg) * cg + ch]) * float(wt[oc, ty, tx, ch])
        out[img, oh, ow, oc] = max(total, 0.0) if spec.relu else total
    return out


@pytest.mark.parametrize("case", ["dense_s2", "many_groups_dil2", "asymmetric_window"])
def test_reference_agrees_with_the_definition(case: str) -> None:
    _, kv, _ = CASES[case]
    spec = ConvIgemmFwdSpec.from_kv(kv)
    rng = np.random.default_rng(5)
    c, k, g = 8, 6, 2
    x = rng.uniform(-1, 1, (2, 5, 6, c))
    wt = rng.uniform(-1, 1, (k, spec.filter_y, spec.filter_x, c // g))
    bias = rng.uniform(-1, 1, k)
    got = reference(spec, {"input": x, "weight": wt, "bias": bias, "g": g})["output"].astype(np.float64)
    want = _product_by_product(spec, x, wt, bias, g)
    rtol, atol = TOL[spec.dtype]  # the reference rounds its float64 result to dtype once
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


@pytest.mark.parametrize(("arch", "kv"), [("gfx942", BASE), ("gfx1201", with_changes(WMMA, stride_h=2, stride_w=2)),
                                          ("sm_90", MMA_SYNC)])
def test_negative_control_padding_not_masked(arch: str, kv: str) -> None:
    spec = ConvIgemmFwdSpec.from_kv(kv)
    result = run_case(spec, arch, edge_problem(spec), fault="drop_pad_mask")
    assert not result.ok


@pytest.mark.parametrize(("arch", "kv"), [("gfx942", BASE), ("gfx1201", with_changes(WMMA, dil_h=2, dil_w=2,
                                                                                      pad_h=2, pad_w=2)),
                                          ("sm_90", with_changes(MMA_SYNC, dil_h=2, dil_w=2, pad_h=2, pad_w=2))])
def test_negative_control_wrong_tap_order(arch: str, kv: str) -> None:
    spec = ConvIgemmFwdSpec.from_kv(kv)
    result = run_case(spec, arch, edge_problem(spec), fault="swap_taps")
    assert not result.ok
    assert result.mismatches > result.count // 4
