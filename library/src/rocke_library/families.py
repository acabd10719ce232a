"""The families owned by library, registered under the entry point ``rocke_library``."""

from __future__ import annotations

from rocke.families import Family


def provide() -> list[Family]:
    """Library's families; filled as the conv and attention families land."""
    return []
