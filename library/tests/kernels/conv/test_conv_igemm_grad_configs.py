"""The config files of conv_igemm_dgrad and conv_igemm_wgrad: canonical lines, every built line a
valid spec on every arch and both dtypes, every refusal line refused by a spec rule or the main
loop plan (each rule once), the window shapes of the coverage notes, and wgrad's convert lines after
their split-K spec."""

from __future__ import annotations

import dataclasses

import pytest

from rocke.arch import ARCH_NAMES
from rocke.families.configs import parse_configs
from rocke.families.spec import Spec, SpecError
from rocke_library.kernels.conv.conv_igemm_dgrad.builder import build as dgrad_build
from rocke_library.kernels.conv.conv_igemm_dgrad.spec import ConvIgemmDgradSpec
from rocke_library.kernels.conv.conv_igemm_wgrad.builder import build as wgrad_build
from rocke_library.kernels.conv.conv_igemm_wgrad.spec import ConvIgemmWgradSpec

BUILDERS = {"conv_igemm_dgrad": dgrad_build, "conv_igemm_wgrad": wgrad_build}
FAMILIES = [("conv_igemm_dgrad", ConvIgemmDgradSpec), ("conv_igemm_wgrad", ConvIgemmWgradSpec)]


def lines(name: str, spec: type[Spec]) -> list:
    from importlib import resources

    text = (resources.files(f"rocke_library.kernels.conv.{name}") / f"{name}.cfg").read_text(encoding="ascii")
    return parse_configs(text, spec, f"{name}.cfg")


@pytest.mark.parametrize(("name", "spec"), FAMILIES, ids=[name for name, _ in FAMILIES])
def test_config_coverage(name: str, spec: type[Spec]) -> None:
    configs = lines(name, spec)
    built = [(line.arch, spec.from_kv(line.kv)) for line in configs if not line.refuse]
    assert {(arch, s.dtype) for arch, s in built} == {(arch, dtype) for arch in ARCH_NAMES for dtype in ("f16", "bf16")}
    windows = {(s.filter_y, s.stride_h, s.dil_h) for _, s in built}
    for window in [(1, 1, 1), (1, 2, 1), (3, 1, 1), (3, 2, 1), (5, 1, 1), (5, 2, 1), (7, 2, 1), (3, 1, 2), (3, 2, 2)]:
        assert window in windows, window
    assert {s.double_buffer for _, s in built} == {False, True}
    messages = []
    for line in configs:
        if line.refuse:
            with pytest.raises(SpecError) as info:
                BUILDERS[name](spec.from_kv(line.kv), line.arch)
            messages.append(str(info.value).split(": ", 1)[1])
    assert len(messages) == len(set(messages)) >= 20  # one line per rule


def test_wgrad_convert_lines_follow_their_split_k_spec_on_every_arch() -> None:
    built = [(line.arch, ConvIgemmWgradSpec.from_kv(line.kv)) for line in lines(*FAMILIES[1]) if not line.refuse]
    assert {1, 2, 4, 8} <= {s.split_k for _, s in built}
    converts = [(i, arch, spec) for i, (arch, spec) in enumerate(built) if spec.convert]
    assert {arch for _, arch, _ in converts} == {arch for arch, _ in built}
    for i, arch, spec in converts:
        assert built[i - 1] == (arch, dataclasses.replace(spec, convert=False))
