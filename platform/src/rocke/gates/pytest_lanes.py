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
    """A test taking ``config_line`` runs once per line of its class's (or module's) family's config file."""
    if "config_line" not in metafunc.fixturenames:
        return
    family = getattr(metafunc.cls, "family", None) or getattr(metafunc.module, "FAMILY", None)
    if family is None:
        raise TypeError(f"{metafunc.function.__name__} takes config_line but its class sets no family")
    from rocke.families.configs import family_configs

    lines = family_configs(family)
    metafunc.parametrize("config_line", lines, ids=[f"{line.arch}:{line.lineno}" for line in lines])
