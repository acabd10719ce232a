"""img2col on the simulator against an independent numpy reference: every config of the config file
at odd sizes (partial last workgroup, two groups, padding on every side), small and degenerate
problems, and negative controls that must fail the same comparison (padding not zero-filled, taps
written in the wrong order). img2col only moves data, so every comparison is exact."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from rocke.families.configs import ConfigLine, family_configs
from rocke_library.kernels.conv.img2col import Img2colSpec, reference
from rocke_library.kernels.conv.img2col.family import FAMILY
from rocke_library.kernels.conv.img2col.numerics import edge_problem, run_case

pytestmark = pytest.mark.numeric

CONFIGS = [line for line in family_configs(FAMILY) if not line.refuse]


def _spec(arch_kv: str) -> Img2colSpec:
    return Img2colSpec.from_kv(arch_kv)


@pytest.mark.parametrize("line", CONFIGS, ids=[f"{c.arch}:{c.lineno}" for c in CONFIGS])
def test_config_matches_reference_at_edges(line: ConfigLine) -> None:
    spec = _spec(line.kv)
    result = run_case(spec, line.arch, edge_problem(spec))
    assert result.ok, result.message


SPECS = {
    "gfx942": "block=64 dil_h=1 dil_w=1 dtype=f16 filter_x=3 filter_y=3 pad_h=1 pad_w=1 stride_h=2 stride_w=2 vec=4",
    "gfx950": "block=128 dil_h=2 dil_w=1 dtype=bf16 filter_x=3 filter_y=2 pad_h=1 pad_w=2 stride_h=1 stride_w=3 "
              "vec=2",
    "gfx1100": "block=32 dil_h=1 dil_w=1 dtype=f32 filter_x=1 filter_y=1 pad_h=0 pad_w=0 stride_h=1 stride_w=1 vec=4",
    "gfx1201": "block=96 dil_h=1 dil_w=1 dtype=f16 filter_x=5 filter_y=5 pad_h=2 pad_w=2 stride_h=1 stride_w=1 vec=8",
    "sm_90": "block=64 dil_h=1 dil_w=2 dtype=bf16 filter_x=3 filter_y=3 pad_h=1 pad_w=2 stride_h=2 stride_w=1 vec=4",
}


@pytest.mark.parametrize("arch", sorted(SPECS))
@pytest.mark.parametrize("shape", ["one_vector", "window_sized", "many_groups", "tall"])
def test_small_and_degenerate_problems(arch: str, shape: str) -> None:
    spec = _spec(SPECS[arch])
    eh, ew = spec.dil_h * (spec.filter_y - 1) + 1, spec.dil_w * (spec.filter_x - 1) + 1
    problem = {
        "one_vector": {"n": 1, "h": eh, "w": ew, "c": spec.vec, "g": 1},  # a single channel vector
        "window_sized": {"n": 3, "h": max(1, eh - 2 * spec.pad_h), "w": max(1, ew - 2 * spec.pad_w),
                         "c": 2 * spec.vec, "g": 1},  # (nearly) every tap in the padding
        "many_groups": {"n": 1, "h": 4, "w": 3, "c": 4 * spec.vec, "g": 4},  # one vector per group
        "tall": {"n": 1, "h": 13, "w": 1 + ew, "c": 3 * spec.vec, "g": 3},
    }[shape]
    result = run_case(spec, arch, problem)
    assert result.ok, result.message


def _brute_force(spec: Img2colSpec, x: np.ndarray, g: int) -> np.ndarray:
    """img2col by its definition, one element at a time."""
    n, h, w, c = x.shape
    cg = c // g
    ho = (h + 2 * spec.pad_h - spec.dil_h * (spec.filter_y - 1) - 1) // spec.stride_h + 1
    wo = (w + 2 * spec.pad_w - spec.dil_w * (spec.filter_x - 1) - 1) // spec.stride_w + 1
    out = np.zeros((g, n * ho * wo, spec.filter_y * spec.filter_x * cg), x.dtype)
    for grp, img, oh, ow, ty, tx, ch in itertools.product(range(g), range(n), range(ho), range(wo),
                                                          range(spec.filter_y), range(spec.filter_x), range(cg)):
        hi = oh * spec.stride_h - spec.pad_h + ty * spec.dil_h
        wi = ow * spec.stride_w - spec.pad_w + tx * spec.dil_w
        if 0 <= hi < h and 0 <= wi < w:
            out[grp, (img * ho + oh) * wo + ow, (ty * spec.filter_x + tx) * cg + ch] = x[img, hi, wi, grp * cg + ch]
    return out


@pytest.mark.parametrize("arch", sorted(SPECS))
def test_reference_agrees_with_the_definition(arch: str) -> None:
    spec = _spec(SPECS[arch])
    x = np.random.default_rng(5).uniform(-1, 1, (2, 5, 6, 4)).astype(np.float32)
    np.testing.assert_array_equal(reference(spec, {"input": x, "g": 2})["col"], _brute_force(spec, x, 2))


@pytest.mark.parametrize("arch", ["gfx942", "gfx1201", "sm_90"])
def test_negative_control_padding_not_zero_filled(arch: str) -> None:
    spec = _spec(SPECS[arch])
    result = run_case(spec, arch, edge_problem(spec), fault="no_pad_fill")
    assert not result.ok
    assert result.mismatches > 0


@pytest.mark.parametrize("arch", ["gfx950", "gfx1201", "sm_90"])
def test_negative_control_taps_in_the_wrong_order(arch: str) -> None:
    spec = _spec(SPECS[arch])
    result = run_case(spec, arch, edge_problem(spec), fault="reverse_taps")
    assert not result.ok
    assert result.mismatches > result.count // 2
