"""Loading the compiled ``rocke_engine`` module; the C++ engine never falls back silently."""

from __future__ import annotations

import importlib
from types import ModuleType


class EngineUnavailableError(ImportError):
    """The C++ engine extension is not importable (e.g. running from a source tree)."""


def native_engine() -> ModuleType:
    """Return the ``rocke_engine`` extension, or raise EngineUnavailableError saying why."""
    try:
        return importlib.import_module("rocke_engine")
    except ImportError as exc:
        raise EngineUnavailableError(
            "the C++ engine 'rocke_engine' is not importable; it is built by installing the rocke wheel "
            f"(pip install ./platform): {exc}"
        ) from exc
