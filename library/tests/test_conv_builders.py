"""Conv family builders over their config files: every config builds and verifies, or refuses, as
its line says; building is deterministic; kernels match their launch contracts; the config files
cover every arch, dtype and rule."""

from __future__ import annotations

import pytest
from conv_cases import FAMILIES, configs

from rocke.arch import ARCH_NAMES, get_arch
from rocke.families.configs import ConfigLine, config_text
from rocke.families.registry import Family
from rocke.families.spec import SpecError
from rocke.ir import canonicalize, parse_kernel, print_kernel, verify
from rocke_library.families import PACKAGE

CONFIGS = [(name, line) for name in sorted(FAMILIES) for line in configs(name)]
SAMPLE_PROBLEMS = {
    "img2col": {"n": 2, "h": 15, "w": 17, "c": 48, "g": 2},
    "conv_direct_fwd": {"n": 2, "h": 15, "w": 17, "c": 48, "k": 40, "g": 2},
}
DEPTHWISE_PROBLEM = {"n": 2, "h": 15, "w": 17, "c": 48}


def _id(case: tuple[str, ConfigLine]) -> str:
    return f"{case[0]}:{case[1].lineno}"


def _build_text(family: Family, line: ConfigLine) -> str:
    """The IR text of the config, or 'refused: MESSAGE'."""
    try:
        spec = family.spec.from_kv(line.kv)  # type: ignore[union-attr]
        kernel = family.build(spec, line.arch)  # type: ignore[misc]
    except SpecError as exc:
        return f"refused: {exc}"
    return print_kernel(kernel)


@pytest.mark.parametrize("case", CONFIGS, ids=[_id(c) for c in CONFIGS])
def test_config_builds_or_refuses_as_its_line_says(case: tuple[str, ConfigLine]) -> None:
    name, line = case
    family = FAMILIES[name]
    first = _build_text(family, line)
    assert first.startswith("refused: ") == line.refuse, first
    assert _build_text(family, line) == first  # deterministic, refusals included
    if line.refuse:
        assert first.startswith(f"refused: {name}: ")
        return
    spec = family.spec.from_kv(line.kv)  # type: ignore[union-attr]
    kernel = parse_kernel(first)
    assert print_kernel(kernel) == first
    assert print_kernel(canonicalize(kernel)) == first  # the builder already numbers canonically
    verify(kernel, arch=get_arch(line.arch))
    assert kernel.name == spec.kernel_name()
    depthwise = getattr(spec, "depthwise", False)
    contract = family.launch(spec, DEPTHWISE_PROBLEM if depthwise else SAMPLE_PROBLEMS[name])  # type: ignore[misc]
    assert [(p.name, p.type.text) for p in kernel.params] == [(a.name, a.type) for a in contract.args]
    assert kernel.attrs["max_workgroup_size"] == contract.block[0]
    for param in kernel.params:
        if param.type.is_ptr:
            role = contract.arg(param.name).role  # type: ignore[arg-type]
            assert param.attrs["readonly"] == (role == "input")
            assert param.attrs["writeonly"] == (role == "output")


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_every_arch_and_dtype_builds_and_every_arch_refuses(name: str) -> None:
    lines = configs(name)
    built = [line for line in lines if not line.refuse]
    assert {line.arch for line in built} == set(ARCH_NAMES)
    assert {line.arch for line in lines if line.refuse} == set(ARCH_NAMES)
    for arch in ARCH_NAMES:
        dtypes = {FAMILIES[name].spec.from_kv(line.kv).dtype for line in built if line.arch == arch}  # type: ignore
        assert dtypes == {"f16", "bf16", "f32"}, arch
    assert len(lines) == len({line.key for line in lines})  # no duplicates


def test_refusal_configs_cover_every_rule_once() -> None:
    """Each refusal line fails a different rule (the rule text with the values taken out)."""
    for name in sorted(FAMILIES):
        family = FAMILIES[name]
        rules = []
        for line in configs(name):
            if line.refuse:
                text = _build_text(family, line)
                rules.append(text.split(": ", 3)[2].split("=")[0] + ":" + "".join(
                    ch for ch in text.split(": ", 3)[3] if not ch.isdigit()))
        assert len(rules) == len(set(rules)), rules


def test_conv_configs_cover_the_windows_that_matter() -> None:
    specs = [FAMILIES["conv_direct_fwd"].spec.from_kv(line.kv) for line in configs("conv_direct_fwd")  # type: ignore
             if not line.refuse]
    assert any(s.depthwise for s in specs) and any(not s.depthwise for s in specs)
    windows = {(s.filter_y, s.filter_x, s.stride_h, s.pad_h, s.dil_h) for s in specs}
    assert {(3, 3, 1, 1, 1), (3, 3, 2, 1, 1), (1, 1, 1, 0, 1), (1, 1, 2, 0, 1), (7, 7, 2, 3, 1),
            (3, 3, 1, 2, 2)} <= windows
    assert {s.bias for s in specs} == {False, True} and {s.relu for s in specs} == {False, True}
    assert {s.vec for s in specs} == {1, 2, 4, 8}
    assert max(s.thread_p * s.thread_k for s in specs) == 64


def test_config_files_are_small_ascii_and_lf() -> None:
    for name in sorted(FAMILIES):
        text = config_text(name, PACKAGE)
        assert "\r" not in text and text.endswith("\n")
        assert 20 <= len(configs(name)) <= 40
