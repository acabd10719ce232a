"""conv_igemm_fwd over its config file, through the conformance kit: every config builds and verifies,
or refuses, as its line says; kernels match their launch contracts; every arch and dtype is covered;
the windows that matter are in the file; the A generator is the tap walk except on the fast path."""

from __future__ import annotations

from typing import ClassVar

from test_conv_igemm_fwd_specs import BASE

from rocke.families.configs import family_configs
from rocke.gates import conformance as kit
from rocke.ir import print_kernel
from rocke_library.kernels.conv.conv_igemm_fwd import ConvIgemmFwdSpec, build
from rocke_library.kernels.conv.conv_igemm_fwd.family import FAMILY


class TestConvIgemmFwdBuilders(kit.BuilderConformance):
    family, base = FAMILY, BASE
    problem: ClassVar[dict[str, int]] = {"n": 2, "h": 15, "w": 17, "c": 48, "k": 40, "g": 2}
    dtypes = ("f16", "bf16")


SPECS = [(line.arch, ConvIgemmFwdSpec.from_kv(line.kv)) for line in family_configs(FAMILY) if not line.refuse]


def test_configs_cover_the_windows_that_matter() -> None:
    windows = {(s.filter_y, s.filter_x, s.stride_h, s.pad_h, s.dil_h) for _, s in SPECS}
    assert {(1, 1, 1, 0, 1), (1, 1, 2, 0, 1), (3, 3, 1, 1, 1), (3, 3, 2, 1, 1), (3, 3, 1, 2, 2), (5, 5, 1, 2, 1),
            (7, 7, 2, 3, 1)} <= windows
    assert {s.bias for _, s in SPECS} == {False, True} and {s.relu for _, s in SPECS} == {False, True}
    assert {s.double_buffer for _, s in SPECS} == {False, True}
    assert {arch for arch, s in SPECS if s.vec == 1 and s.bn == 16} >= {"gfx942", "gfx1201"}  # depthwise-sized


def test_the_fast_path_has_no_tap_arithmetic() -> None:
    for arch, spec in SPECS:
        text = print_kernel(build(spec, arch))
        if spec.pointwise:
            assert "%tap" not in text and "pix_ok" not in text, (arch, spec.to_kv())
        else:
            assert "pix_ok" in text, (arch, spec.to_kv())
