"""Family discovery through the ``rocke.families`` entry-point group.

Each installed package registers one provider: a callable returning its families.
Platform iterates the providers and never names a library module.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points

ENTRY_POINT_GROUP = "rocke.families"


@dataclass(frozen=True)
class Family:
    """A kernel family: its name and the package that owns it."""

    name: str
    owner: str


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
