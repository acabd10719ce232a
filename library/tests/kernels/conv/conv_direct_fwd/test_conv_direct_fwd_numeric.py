"""conv_direct_fwd on the simulator against an independent numpy reference: every config of the
config file with a partial last pixel tile, a partial last channel tile and two groups; dense,
many-group, single-channel and window-sized problems; the reference itself against the definition
of a convolution; and negative controls that must fail the same comparison (padding taps not masked,
the last filter tap skipped).

Tolerances (see numerics.py): inputs and weights uniform in [-1, 1]; f32 output within 1e-4
absolute, f16 / bf16 output within one or two output ulps.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from rocke.families.configs import ConfigLine, family_configs
from rocke_library.kernels.conv.conv_direct_fwd import ConvDirectFwdSpec, reference
from rocke_library.kernels.conv.conv_direct_fwd.family import FAMILY
from rocke_library.kernels.conv.conv_direct_fwd.numerics import edge_problem, run_case

pytestmark = pytest.mark.numeric

CONFIGS = [line for line in family_configs(FAMILY) if not line.refuse]


@pytest.mark.parametrize("line", CONFIGS, ids=[f"{c.arch}:{c.lineno}" for c in CONFIGS])
def test_config_matches_reference_at_edges(line: ConfigLine) -> None:
    spec = ConvDirectFwdSpec.from_kv(line.kv)
    result = run_case(spec, line.arch, edge_problem(spec))
    assert result.ok, result.message


GROUPED = {
    "gfx942": "bias=1 depthwise=0 dil_h=1 dil_w=1 dtype=f16 filter_x=3 filter_y=3 pad_h=1 pad_w=1 relu=1 stride_h=2 "
              "stride_w=2 thread_k=2 thread_p=2 tile_k=16 tile_p=16 vec=2",
    "gfx950": "bias=0 depthwise=0 dil_h=2 dil_w=1 dtype=f32 filter_x=2 filter_y=3 pad_h=3 pad_w=1 relu=0 stride_h=1 "
              "stride_w=3 thread_k=4 thread_p=1 tile_k=16 tile_p=16 vec=1",
    "gfx1100": "bias=1 depthwise=0 dil_h=1 dil_w=1 dtype=bf16 filter_x=1 filter_y=1 pad_h=0 pad_w=0 relu=0 "
               "stride_h=1 stride_w=1 thread_k=8 thread_p=2 tile_k=16 tile_p=32 vec=4",
    "gfx1201": "bias=1 depthwise=0 dil_h=1 dil_w=1 dtype=f16 filter_x=5 filter_y=5 pad_h=2 pad_w=2 relu=1 stride_h=1 "
               "stride_w=1 thread_k=4 thread_p=2 tile_k=8 tile_p=32 vec=8",
    "sm_90": "bias=1 depthwise=0 dil_h=1 dil_w=2 dtype=bf16 filter_x=3 filter_y=3 pad_h=1 pad_w=2 relu=1 stride_h=2 "
             "stride_w=1 thread_k=4 thread_p=2 tile_k=16 tile_p=16 vec=4",
}
DEPTHWISE = {
    "gfx942": "bias=1 depthwise=1 dil_h=1 dil_w=1 dtype=bf16 filter_x=3 filter_y=3 pad_h=1 pad_w=1 relu=1 stride_h=1 "
              "stride_w=1 thread_k=4 thread_p=2 tile_k=16 tile_p=32 vec=2",
    "gfx1100": "bias=0 depthwise=1 dil_h=2 dil_w=2 dtype=f32 filter_x=3 filter_y=3 pad_h=2 pad_w=2 relu=0 stride_h=2 "
               "stride_w=1 thread_k=2 thread_p=1 tile_k=4 tile_p=16 vec=1",
    "sm_90": "bias=1 depthwise=1 dil_h=1 dil_w=1 dtype=f16 filter_x=5 filter_y=5 pad_h=2 pad_w=2 relu=0 stride_h=1 "
             "stride_w=2 thread_k=4 thread_p=2 tile_k=16 tile_p=16 vec=4",
}


@pytest.mark.parametrize("arch", sorted(GROUPED))
@pytest.mark.parametrize("shape", ["dense", "many_groups", "one_channel_out", "window_sized"])
def test_grouped_problems(arch: str, shape: str) -> None:
    spec = ConvDirectFwdSpec.from_kv(GROUPED[arch])
    eh, ew = spec.dil_h * (spec.filter_y - 1) + 1, spec.dil_w * (spec.filter_x - 1) + 1
    v = spec.vec
    problem = {
        "dense": {"n": 1, "h": 6, "w": 5, "c": 3 * v, "k": spec.tile_k + 1, "g": 1},
        "many_groups": {"n": 2, "h": 4, "w": 4, "c": 4 * v, "k": 12, "g": 4},  # 3 output channels per group
        "one_channel_out": {"n": 2, "h": 5, "w": 7, "c": 2 * v, "k": 1, "g": 1},
        "window_sized": {"n": 3, "h": max(1, eh - 2 * spec.pad_h), "w": max(1, ew - 2 * spec.pad_w), "c": v,
                         "k": 5, "g": 1},
    }[shape]
    result = run_case(spec, arch, problem)
    assert result.ok, result.message


@pytest.mark.parametrize("arch", sorted(DEPTHWISE))
@pytest.mark.parametrize("shape", [(1, 3, 3, 1), (2, 7, 5, 3), (1, 9, 2, 9)])
def test_depthwise_problems(arch: str, shape: tuple[int, int, int, int]) -> None:
    spec = ConvDirectFwdSpec.from_kv(DEPTHWISE[arch])
    n, h, w, vecs = shape
    result = run_case(spec, arch, {"n": n, "h": h, "w": w, "c": vecs * spec.vec})
    assert result.ok, result.message


def _brute_force(spec: ConvDirectFwdSpec, x: np.ndarray, wt: np.ndarray, bias: np.ndarray, g: int) -> np.ndarray:
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


@pytest.mark.parametrize("kv", [GROUPED["gfx942"], GROUPED["gfx950"], DEPTHWISE["gfx1100"]])
def test_reference_agrees_with_the_definition(kv: str) -> None:
    spec = ConvDirectFwdSpec.from_kv(kv)
    rng = np.random.default_rng(3)
    c, k, g = (4, 4, 4) if spec.depthwise else (4, 6, 2)
    x = rng.uniform(-1, 1, (2, 5, 6, c))
    wt = rng.uniform(-1, 1, (k, spec.filter_y, spec.filter_x, c // g))
    bias = rng.uniform(-1, 1, k)
    got = reference(spec.__class__.from_kv(kv.replace("dtype=f16", "dtype=f32").replace("dtype=bf16", "dtype=f32")),
                    {"input": x, "weight": wt, "bias": bias, "g": g})["output"]
    np.testing.assert_allclose(got, _brute_force(spec, x, wt, bias, g), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize(("arch", "kv"), [("gfx942", GROUPED["gfx942"]), ("gfx1201", GROUPED["gfx1201"]),
                                          ("gfx1100", DEPTHWISE["gfx1100"]), ("sm_90", GROUPED["sm_90"]),
                                          ("sm_90", DEPTHWISE["sm_90"])])
def test_negative_control_padding_not_masked(arch: str, kv: str) -> None:
    spec = ConvDirectFwdSpec.from_kv(kv)
    result = run_case(spec, arch, edge_problem(spec), fault="no_pad_mask")
    assert not result.ok


@pytest.mark.parametrize(("arch", "kv"), [("gfx950", GROUPED["gfx950"]), ("gfx942", DEPTHWISE["gfx942"]),
                                          ("sm_90", GROUPED["sm_90"]), ("sm_90", DEPTHWISE["sm_90"])])
def test_negative_control_last_tap_skipped(arch: str, kv: str) -> None:
    spec = ConvDirectFwdSpec.from_kv(kv)
    result = run_case(spec, arch, edge_problem(spec), fault="skip_last_tap")
    assert not result.ok
    assert result.mismatches > result.count // 4
