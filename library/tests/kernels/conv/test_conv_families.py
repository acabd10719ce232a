"""Library's conv families as the platform sees them: defined with owner rocke-library and the
library's engine, emitter and package; the shipped ones are found by rocke.families discovery
and are exactly what the parity gate checks."""

from __future__ import annotations

import importlib

from rocke.families import discover_families
from rocke.families.configs import family_configs
from rocke.gates.emitters import find_native_emitter
from rocke.gates.runner import select_families
from rocke_library import families as library_families

NAMES = ("conv_direct_fwd", "conv_igemm_dgrad", "conv_igemm_fwd", "conv_igemm_wgrad", "img2col")


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


def test_the_parity_gate_checks_each_shipped_family_and_no_other() -> None:
    """The families `rocke check parity` iterates (the gate's own selection) that library owns are
    exactly the shipped ones, each complete and with both C++ emitters reachable by the gate; the
    parity lane then runs that gate over them (SHIPPED's claim: their twins pass on every config)."""
    checked = [family for family in select_families(None) if family.owner == "rocke-library"]
    assert [family.name for family in checked] == sorted(library_families.SHIPPED)
    for family in checked:
        assert callable(getattr(importlib.import_module(family.cpp_engine), "build_family", None))
        assert find_native_emitter(family.native_emitter).name == "rocke-library-emit"


def test_discovery_lists_the_shipped_families_with_their_owner() -> None:
    found = {family.name: family for family in discover_families()}
    for name in NAMES:
        if name in library_families.SHIPPED:
            assert found[name].owner == "rocke-library"
        else:
            assert name not in found
    assert {"elementwise", "gemm"} <= set(found)  # platform's own families are still there
