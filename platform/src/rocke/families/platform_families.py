"""The families owned by platform (registered under the entry point ``rocke``)."""

from __future__ import annotations

from rocke.families.registry import Family


def provide() -> list[Family]:
    """Platform's families; filled as platform families land."""
    return []
