"""pytest plugin (entry point ``pytest11``): the lane markers nox selects with ``-m``, and the
``config_line`` parameter of the family conformance kit (:mod:`rocke.gates.conformance`).

Shipped in the platform wheel so platform's and library's test suites share one list.
"""

from __future__ import annotations

from typing import Any

LANE_MARKERS = {
    "parity": "Python engine vs C++ engine byte identity",
    "golden": "golden store checks",
    "validity": "real LLVM 22 checks",
    "validity_llvm20": "real LLVM 20 checks",
    "numeric": "simulator numerics against independent numpy references",
}


def pytest_configure(config: Any) -> None:
    """Register the lane markers (config is pytest's Config; pytest stays optional for rocke)."""
    for name, doc in LANE_MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {doc}")


def pytest_generate_tests(metafunc: Any) -> None:
    """The parameters of the family conformance kit's tests: ``config_line`` runs once per line of the
    family's config file (the class's ``family``, else the module's ``FAMILY``); ``spec_refusal`` and
    ``arch_refusal`` once per row of the class's ``spec_refusals`` and ``arch_refusals``."""
    if "config_line" in metafunc.fixturenames:
        family = getattr(metafunc.cls, "family", None) or getattr(metafunc.module, "FAMILY", None)
        if family is None:
            raise TypeError(f"{metafunc.function.__name__} takes config_line but its class sets no family")
        from rocke.families.configs import family_configs

        lines = family_configs(family)
        metafunc.parametrize("config_line", lines, ids=[f"{line.arch}:{line.lineno}" for line in lines])
    for name, table in (("spec_refusal", "spec_refusals"), ("arch_refusal", "arch_refusals")):
        if name in metafunc.fixturenames:
            rows = getattr(metafunc.cls, table, None)
            if not rows:
                raise TypeError(f"{metafunc.function.__name__} takes {name} but its class has no {table}")
            metafunc.parametrize(name, rows, ids=[f"{row[-1].split(':')[1].strip()}-{i}" for i, row in enumerate(rows)])
