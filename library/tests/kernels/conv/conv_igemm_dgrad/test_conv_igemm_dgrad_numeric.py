"""conv_igemm_dgrad on the simulator against its float64 reference (written from the forward
definition, not from the GEMM view): every config of the config file with tails in every GEMM
dimension and two groups; dense, many-group and depthwise problems; input pixels no tap reaches
(stride 2) holding exactly 0; and negative controls that must fail the same comparison (the stride
division taken as exact, the filter taps in reverse order).

Tolerances (see numerics.py): dy and w uniform in [-1, 1]; f16 output within rtol 2e-3 + atol 1e-3,
bf16 within rtol 1.6e-2 + atol 8e-3 (two output ulps); unreached pixels exactly 0.
"""

from __future__ import annotations

import pytest

from rocke.families.configs import ConfigLine, family_configs
from rocke.gates.conformance import with_changes
from rocke_library.kernels.conv.conv_igemm_dgrad import ConvIgemmDgradSpec
from rocke_library.kernels.conv.conv_igemm_dgrad.family import FAMILY
from rocke_library.kernels.conv.conv_igemm_dgrad.numerics import edge_problem, reached, run_case

pytestmark = pytest.mark.numeric

CONFIGS = [line for line in family_configs(FAMILY) if not line.refuse]

# vec=1 specs (any channel count, so depthwise too), one MFMA, one WMMA and one mma.sync (16 x 8 atom, bn 8)
SMALL = {
    "gfx942": "bk=16 bm=32 bn=16 dil_h=1 dil_w=1 double_buffer=1 dtype=f16 filter_x=3 filter_y=3 lds_pad=2 "
              "op_id=mfma_f32_16x16x16_f16 pad_h=1 pad_w=1 stride_h=2 stride_w=2 vec=1 wm=2 wn=1",
    "gfx1100": "bk=16 bm=16 bn=16 dil_h=2 dil_w=1 double_buffer=0 dtype=bf16 filter_x=3 filter_y=3 lds_pad=0 "
               "op_id=wmma_f32_16x16x16_bf16_gfx11 pad_h=2 pad_w=0 stride_h=1 stride_w=2 vec=1 wm=1 wn=1",
    "sm_90": "bk=16 bm=32 bn=8 dil_h=1 dil_w=2 double_buffer=1 dtype=bf16 filter_x=3 filter_y=3 lds_pad=2 "
             "op_id=mma_sync_f32_16x8x16_bf16 pad_h=1 pad_w=2 stride_h=1 stride_w=1 vec=1 wm=2 wn=1",
}


@pytest.mark.parametrize("line", CONFIGS, ids=[f"{c.arch}:{c.lineno}" for c in CONFIGS])
def test_config_matches_reference_at_edges(line: ConfigLine) -> None:
    spec = ConvIgemmDgradSpec.from_kv(line.kv)
    result = run_case(spec, line.arch, edge_problem(spec))
    assert result.ok, result.message


@pytest.mark.parametrize("arch", sorted(SMALL))
@pytest.mark.parametrize("shape", ["dense", "many_groups", "depthwise"])
def test_grouped_problems(arch: str, shape: str) -> None:
    spec = ConvIgemmDgradSpec.from_kv(SMALL[arch])
    problem = {
        "dense": {"n": 1, "h": 7, "w": 6, "c": 19, "k": 5, "g": 1},
        "many_groups": {"n": 2, "h": 5, "w": 5, "c": 12, "k": 8, "g": 4},
        "depthwise": {"n": 2, "h": 6, "w": 7, "c": 6, "k": 6, "g": 6},
    }[shape]
    result = run_case(spec, arch, problem)
    assert result.ok, result.message


def test_stride_two_leaves_pixels_no_tap_reaches() -> None:
    """The 1x1 stride-2 config reads only even rows and columns: the others must come back exactly 0
    (run_case fails on anything else there, canary included)."""
    line = next(c for c in CONFIGS if "filter_x=1 " in c.kv and "stride_h=2" in c.kv)
    spec = ConvIgemmDgradSpec.from_kv(line.kv)
    problem = edge_problem(spec)
    assert not reached(spec, problem).all()
    result = run_case(spec, line.arch, problem)
    assert result.ok, result.message


@pytest.mark.parametrize("arch", sorted(SMALL))
def test_negative_control_inexact_stride(arch: str) -> None:
    """Taking (h + pad - ky * dil) / stride without checking the division is exact must fail."""
    spec = ConvIgemmDgradSpec.from_kv(with_changes(SMALL[arch], stride_h=2, stride_w=2))
    result = run_case(spec, arch, edge_problem(spec), fault="inexact_stride")
    assert not result.ok


@pytest.mark.parametrize("arch", sorted(SMALL))
def test_negative_control_flipped_taps(arch: str) -> None:
    """Reading the filter taps in reverse order (w[tap] for tap Y*X - 1 - tap) must fail."""
    spec = ConvIgemmDgradSpec.from_kv(SMALL[arch])
    result = run_case(spec, arch, edge_problem(spec), fault="flip_taps")
    assert not result.ok
    assert result.mismatches > result.count // 4
