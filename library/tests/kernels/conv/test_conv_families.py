"""Library's conv families as the platform sees them: defined with owner rocke-library and the
library's engine, emitter and package; the shipped ones are found by rocke.families discovery."""

from __future__ import annotations

from rocke.families import discover_families
from rocke.families.configs import family_configs
from rocke_library import families as library_families

NAMES = ("conv_direct_fwd", "img2col")


def test_library_defines_the_conv_families() -> None:
    defined = [family for family in library_families.defined() if family.name in NAMES]
    assert tuple(family.name for family in defined) == NAMES
    for family in defined:
        assert family.owner == "rocke-library"
        assert family.package == f"rocke_library.kernels.conv.{family.name}"
        assert family.cpp_engine == "rocke_library_engine"
        assert family.native_emitter == "rocke-library-emit"
        assert family.spec is not None and family.spec.FAMILY == family.name
        assert None not in (family.build, family.launch, family.reference, family.numerics)
        assert family_configs(family)  # the shipped config file parses with the family's spec


def test_provide_ships_exactly_the_families_whose_twins_pass_parity() -> None:
    shipped = library_families.provide()
    assert tuple(family.name for family in shipped) == library_families.SHIPPED
    assert set(library_families.SHIPPED) <= {family.name for family in library_families.defined()}


def test_discovery_lists_the_shipped_families_with_their_owner() -> None:
    found = {family.name: family for family in discover_families()}
    for name in NAMES:
        if name in library_families.SHIPPED:
            assert found[name].owner == "rocke-library"
        else:
            assert name not in found
    assert {"elementwise", "gemm"} <= set(found)  # platform's own families are still there
