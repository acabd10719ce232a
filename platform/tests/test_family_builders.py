"""Family builders over their config files: every config builds and verifies, or refuses, as its
line says; building is deterministic; kernels match their launch contracts."""

from __future__ import annotations

import pytest

from rocke.arch import UnknownArchError, get_arch
from rocke.families.configs import ConfigLine, load_configs
from rocke.families.platform_families import provide
from rocke.families.registry import Family
from rocke.families.spec import SpecError
from rocke.ir import canonicalize, parse_kernel, print_kernel, verify

FAMILIES = {family.name: family for family in provide()}
CONFIGS = [(name, line) for name in sorted(FAMILIES) for line in load_configs(name)]
SAMPLE_PROBLEMS = {"elementwise": {"n": 1000}, "gemm": {"m": 100, "n": 70, "k": 50}}


def _id(case: tuple[str, ConfigLine]) -> str:
    return f"{case[0]}:{case[1].lineno}"


def _build_text(family: Family, line: ConfigLine) -> str:
    """The canonical IR text of the config, or 'refused: MESSAGE'."""
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
    contract = family.launch(spec, SAMPLE_PROBLEMS[name])  # type: ignore[misc]
    assert [(p.name, p.type.text) for p in kernel.params] == [(a.name, a.type) for a in contract.args]
    assert kernel.attrs["max_workgroup_size"] == contract.block[0]
    for param in kernel.params:
        if param.type.is_ptr:
            role = contract.arg(param.name).role  # type: ignore[arg-type]
            assert param.attrs["readonly"] == (role == "input")
            assert param.attrs["writeonly"] == (role == "output")


def test_every_family_has_configs_and_refusals_on_every_arch() -> None:
    for name in FAMILIES:
        lines = load_configs(name)
        built = {line.arch for line in lines if not line.refuse}
        assert built == {"gfx942", "gfx950", "gfx1100", "gfx1201"}, name
        assert any(line.refuse for line in lines)


def test_gemm_configs_cover_every_mma_op_of_every_arch() -> None:
    from rocke.arch import MMA_OPS

    built = {(line.arch, line.kv.split("op_id=")[1].split(" ")[0]) for line in load_configs("gemm")
             if not line.refuse}
    for op in MMA_OPS:
        for arch in op.archs:
            assert (arch, op.id) in built


def test_unknown_arch_and_fault() -> None:
    for family in FAMILIES.values():
        kv = next(line.kv for line in load_configs(family.name) if not line.refuse)
        spec = family.spec.from_kv(kv)  # type: ignore[union-attr]
        with pytest.raises(UnknownArchError):
            family.build(spec, "gfx90a")  # type: ignore[misc]
        with pytest.raises(ValueError, match="unknown fault 'nope'"):
            family.build(spec, "gfx942", _fault="nope")  # type: ignore[misc]
