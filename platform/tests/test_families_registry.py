"""Family discovery goes through the `rocke.families` entry-point group."""

import pytest

from rocke.families import ENTRY_POINT_GROUP, Family, discover_families, providers, registry
from rocke.families.platform_families import provide


def test_platform_registers_its_provider():
    assert ENTRY_POINT_GROUP == "rocke.families"
    assert "rocke" in providers()


def test_discovered_families_are_sorted_and_unique():
    names = [f.name for f in discover_families()]
    assert names == sorted(set(names))


def test_a_family_registered_twice_is_an_error(monkeypatch):
    def twice():
        return {"a": lambda: [Family("gemm", "rocke")], "b": lambda: [Family("gemm", "rocke-library")]}

    monkeypatch.setattr(registry, "providers", twice)
    with pytest.raises(ValueError, match=r"family .gemm. is registered by both .rocke. and .rocke-library."):
        registry.discover_families()


def test_platform_families_are_registered_completely() -> None:
    families = provide()
    assert [f.name for f in families] == ["elementwise", "gemm"]
    for family in families:
        assert family.owner == "rocke" and family.package == f"rocke.families.{family.name}"
        assert family.cpp_engine == "rocke_engine" and family.native_emitter == "rocke-emit"
        assert family.spec is not None and family.spec.FAMILY == family.name
        assert callable(family.build) and callable(family.launch) and callable(family.reference)
