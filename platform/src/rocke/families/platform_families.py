"""The families owned by platform (registered under the entry point ``rocke``).

Each family's record lives in its own folder (`rocke/families/<family>/family.py`, beside its
config file `<family>.cfg` and golden `<family>.golden.json`); this list only lists them.
"""

from __future__ import annotations

from rocke.families.elementwise.family import FAMILY as ELEMENTWISE
from rocke.families.gemm.family import FAMILY as GEMM
from rocke.families.registry import Family


def provide() -> list[Family]:
    """Platform's families, sorted by name."""
    return [ELEMENTWISE, GEMM]
