"""rocke.families: the family registry (entry-point group ``rocke.families``) and platform families."""

from rocke.families.registry import (
    ENTRY_POINT_GROUP,
    Family,
    FamilyProvider,
    build_family,
    discover_families,
    get_family,
    providers,
)
from rocke.families.spec import Spec, SpecError

__all__ = [
    "ENTRY_POINT_GROUP",
    "Family",
    "FamilyProvider",
    "Spec",
    "SpecError",
    "build_family",
    "discover_families",
    "get_family",
    "providers",
]
