"""conv_igemm_wgrad on the simulator against its float64 reference (written from the forward
definition, not from the GEMM view): every config of the config file (split-K configs as zero-fill,
main kernel, convert kernel) with tails in every GEMM dimension, two groups and every split-K share
non-empty; dense, many-group and depthwise problems; and negative controls that must fail the same
comparison (one split-K partial dropped, the filter taps in reverse order, the convert launch left out).

Tolerances (see numerics.py): x and dy uniform in [-1, 1]; f16 output within rtol 2e-3 + atol 1e-3,
bf16 within rtol 1.6e-2 + atol 8e-3 (two output ulps).
"""

from __future__ import annotations

import pytest

from rocke.families.configs import ConfigLine, family_configs
from rocke.gates.conformance import with_changes
from rocke_library.kernels.conv.conv_igemm_wgrad import ConvIgemmWgradSpec
from rocke_library.kernels.conv.conv_igemm_wgrad.family import FAMILY
from rocke_library.kernels.conv.conv_igemm_wgrad.numerics import edge_problem, run_case

pytestmark = pytest.mark.numeric

CONFIGS = [line for line in family_configs(FAMILY) if not line.refuse]

# vec=1 split-K specs (any channel count, so depthwise too), one MFMA, one WMMA and one mma.sync (16 x 8
# atom, bn 8)
SMALL = {
    "gfx950": "bk=16 bm=16 bn=32 convert=0 dil_h=1 dil_w=1 double_buffer=1 dtype=bf16 filter_x=3 filter_y=3 "
              "lds_pad=2 op_id=mfma_f32_16x16x16_bf16 pad_h=1 pad_w=1 split_k=3 stride_h=2 stride_w=2 vec=1 wm=1 "
              "wn=2",
    "gfx1201": "bk=16 bm=16 bn=16 convert=0 dil_h=2 dil_w=1 double_buffer=0 dtype=f16 filter_x=3 filter_y=3 "
               "lds_pad=0 op_id=wmma_f32_16x16x16_f16_gfx12 pad_h=2 pad_w=0 split_k=2 stride_h=1 stride_w=2 vec=1 "
               "wm=1 wn=1",
    "sm_90": "bk=16 bm=32 bn=8 convert=0 dil_h=1 dil_w=1 double_buffer=1 dtype=f16 filter_x=3 filter_y=3 "
             "lds_pad=4 op_id=mma_sync_f32_16x8x16_f16 pad_h=1 pad_w=1 split_k=3 stride_h=2 stride_w=2 vec=1 wm=2 "
             "wn=1",
}


@pytest.mark.parametrize("line", CONFIGS, ids=[f"{c.arch}:{c.lineno}" for c in CONFIGS])
def test_config_matches_reference_at_edges(line: ConfigLine) -> None:
    spec = ConvIgemmWgradSpec.from_kv(line.kv)
    result = run_case(spec, line.arch, edge_problem(spec))
    assert result.ok, result.message


@pytest.mark.parametrize("arch", sorted(SMALL))
@pytest.mark.parametrize("shape", ["dense", "many_groups", "depthwise"])
def test_grouped_problems(arch: str, shape: str) -> None:
    spec = ConvIgemmWgradSpec.from_kv(SMALL[arch])
    problem = {
        "dense": {"n": 1, "h": 9, "w": 8, "c": 7, "k": 19, "g": 1},
        "many_groups": {"n": 2, "h": 6, "w": 5, "c": 12, "k": 8, "g": 4},
        "depthwise": {"n": 2, "h": 7, "w": 6, "c": 5, "k": 5, "g": 5},
    }[shape]
    result = run_case(spec, arch, problem)
    assert result.ok, result.message


@pytest.mark.parametrize("arch", sorted(SMALL))
def test_direct_path_matches_the_split_k_path(arch: str) -> None:
    """split_k = 1 (dw stored by the main kernel) on the same problem."""
    spec = ConvIgemmWgradSpec.from_kv(with_changes(SMALL[arch], split_k=1))
    result = run_case(spec, arch, edge_problem(spec))
    assert result.ok, result.message


@pytest.mark.parametrize("arch", sorted(SMALL))
def test_negative_control_missing_partial(arch: str) -> None:
    """The workgroups of the last split-K share not adding their partial sums must fail."""
    spec = ConvIgemmWgradSpec.from_kv(SMALL[arch])
    result = run_case(spec, arch, edge_problem(spec), fault="drop_partial")
    assert not result.ok


@pytest.mark.parametrize("arch", sorted(SMALL))
def test_negative_control_flipped_taps(arch: str) -> None:
    """Gathering x for tap Y*X - 1 - tap instead of tap must fail."""
    spec = ConvIgemmWgradSpec.from_kv(SMALL[arch])
    result = run_case(spec, arch, edge_problem(spec), fault="flip_taps")
    assert not result.ok
    assert result.mismatches > result.count // 4


@pytest.mark.parametrize("arch", ["gfx950", "sm_90"])
def test_negative_control_convert_left_out(arch: str) -> None:
    """dw never written (the canary stays) when the convert launch is skipped."""
    spec = ConvIgemmWgradSpec.from_kv(SMALL[arch])
    result = run_case(spec, arch, edge_problem(spec), fault="skip_convert")
    assert not result.ok
    assert result.mismatches == result.count
