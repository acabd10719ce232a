"""Shared helpers of the attention tests: the library's attention families and their config lines."""

from __future__ import annotations

from rocke.families.configs import ConfigLine, load_configs
from rocke.families.registry import Family
from rocke_library.families import PACKAGE, defined

FAMILIES: dict[str, Family] = {family.name: family for family in defined() if family.name.startswith("attention")}
ATTN = ("block_m=64 block_n=64 dtype=f16 head_dim=64 lds_pad=8 mask=none op_id=mfma_f32_32x32x8_f16 "
        "seq_mode=batched waves=2")


def configs(name: str) -> list[ConfigLine]:
    """The config lines of a library attention family."""
    return load_configs(name, FAMILIES[name].spec, package=PACKAGE)


def with_changes(base: str, **changes: object) -> str:
    """base kv with some values replaced (keys stay sorted)."""
    pairs = dict(pair.split("=", 1) for pair in base.split(" "))
    for key, value in changes.items():
        assert key in pairs, key
        pairs[key] = str(int(value)) if isinstance(value, bool) else str(value)
    return " ".join(f"{key}={pairs[key]}" for key in sorted(pairs))
