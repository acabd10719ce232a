"""pytest plugin (entry point ``pytest11``): the lane markers nox selects with ``-m``.

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
