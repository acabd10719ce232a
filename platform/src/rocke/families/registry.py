"""Family discovery through the ``rocke.families`` entry-point group.

Each installed package registers one provider: a callable returning its families.
Platform iterates the providers and never names a library module.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

from rocke.families.refusals import check_resources, family_table

ENTRY_POINT_GROUP = "rocke.families"


@dataclass(frozen=True)
class Family:
    """A kernel family, end to end.

    name          family name (also the C++ builder's registry key)
    owner         distribution that owns it: "rocke" or "rocke-library"
    spec          the Spec subclass (canonical kv text form)
    build         Python builder: build(spec, arch_name) -> KernelDef
    package       the family's own folder (import package); it holds its config file <name>.cfg and
                  its golden <name>.golden.json
    cpp_engine    extension module whose build_family(name, kv, arch) is the C++ builder twin
    native_emitter  the C++ executable that emits this family with no Python
    launch        launch(spec, problem) -> LaunchContract (grid, block, args) -- used by sim and hosts
    reference     numpy reference for numeric tests: reference(spec, inputs) -> outputs
    numerics      numerics(spec, arch, seed) -> rocke.sim Comparison on a problem with edges (`rocke sim`)
    """

    name: str
    owner: str
    spec: type | None = None
    build: Callable[..., Any] | None = None
    package: str = ""
    cpp_engine: str = ""
    native_emitter: str = ""
    launch: Callable[..., Any] | None = None
    reference: Callable[..., Any] | None = None
    numerics: Callable[..., Any] | None = None


FamilyProvider = Callable[[], list[Family]]


def providers() -> dict[str, FamilyProvider]:
    """Installed providers by entry-point name, sorted by name for determinism."""
    found = {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}
    return {name: found[name].load() for name in sorted(found)}


def discover_families() -> list[Family]:
    """Every family of every installed provider; a name registered twice is an error."""
    families: dict[str, Family] = {}
    for provider_name, provide in providers().items():
        for family in provide():
            if family.name in families:
                raise ValueError(
                    f"family '{family.name}' is registered by both '{families[family.name].owner}' "
                    f"and '{family.owner}' (provider '{provider_name}')"
                )
            families[family.name] = family
    return [families[name] for name in sorted(families)]


def build_family(family: Family, spec: Any, arch: str) -> Any:
    """The family's kernel for spec on arch, as every engine entry point builds it (C++ twin:
    FamilyRegistry::build): a spec the family's resource-refusal table lists is refused
    (ResourceRefusal, a SpecError) before the builder runs; ``family.build`` is the bare builder."""
    table = family_table(family)
    if table.lists(arch):  # else no spec on arch is refused: no digest to take
        check_resources(table, spec, arch)
    assert family.build is not None
    return family.build(spec, arch)


def get_family(name: str, *, cpp_engine: str | None = None) -> Family:
    """The installed family `name`; KeyError naming the known ones. With `cpp_engine`, only the
    families whose C++ twin lives in that extension module count: what its ``build_family`` knows
    (platform's ``rocke_engine`` links no library family)."""
    families = {f.name: f for f in discover_families() if cpp_engine is None or f.cpp_engine == cpp_engine}
    if name not in families:
        raise KeyError(f"unknown family '{name}'; known: {', '.join(sorted(families)) or 'none'}")
    return families[name]
