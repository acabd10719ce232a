"""LLVM flavors (data/flavors.toml): the one table of which LLVM major rocKE writes IR for.

A flavor row holds what the lowerer must spell differently per LLVM (attribute spellings,
intrinsic declaration overrides) and which llvmlite releases validate it. The [llvm] section holds
the LLVM facts shared by every flavor and target (scalar type spellings); what differs per target
(triple, datalayout per flavor, address spaces) is rocke.arch.targets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rocke.arch.datafile import (
    check_keys,
    parse_toml,
    read_data_text,
    want_int,
    want_list,
    want_str,
    want_unique,
)
from rocke.arch.errors import ArchDataError

FLAVORS_FILE = "flavors.toml"
FLAVORS_FORMAT = "rocke.flavors/1"

_FLAVOR_KEYS = ("name", "llvm_major", "llvmlite_min", "llvmlite_max", "nocapture", "intrinsic_overrides")
_OVERRIDE_KEYS = ("name", "ret", "params")
# Every rocke.ir scalar must have an LLVM spelling, in this order.
_IR_SCALARS = ("i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32")


@dataclass(frozen=True)
class IntrinsicOverride:
    """A flavor's replacement signature for one row of the intrinsic table."""

    name: str
    ret: str
    params: tuple[str, ...]


@dataclass(frozen=True)
class Flavor:
    """One row of flavors.toml."""

    name: str
    llvm_major: int
    llvmlite_min: str
    llvmlite_max: str
    nocapture: str
    intrinsic_overrides: tuple[IntrinsicOverride, ...]

    def override_for(self, intrinsic: str) -> IntrinsicOverride | None:
        for override in self.intrinsic_overrides:
            if override.name == intrinsic:
                return override
        return None


@dataclass(frozen=True)
class LlvmFacts:
    """The [llvm] section: LLVM facts every flavor and target shares."""

    scalar_types: tuple[tuple[str, str], ...]  # (rocke.ir scalar, LLVM type)

    def llvm_scalar(self, ir_name: str) -> str:
        for ir, llvm in self.scalar_types:
            if ir == ir_name:
                return llvm
        raise ValueError(f"no LLVM spelling for scalar type '{ir_name}'")


@dataclass(frozen=True)
class FlavorData:
    llvm: LlvmFacts
    flavors: tuple[Flavor, ...]


def ir_pairs(value: Any, names: tuple[str, ...], kind: type, where: str) -> tuple[tuple[str, Any], ...]:
    """A list of { ir, llvm } rows naming exactly `names` in order, as (ir, llvm) pairs."""
    rows = want_list(value, where)
    pairs = []
    for i, row in enumerate(rows):
        row = check_keys(row, ("ir", "llvm"), f"{where}[{i}]")
        want = want_str if kind is str else want_int
        llvm = want(row["llvm"], f"{where}[{i}].llvm")
        pairs.append((want_str(row["ir"], f"{where}[{i}].ir"), llvm))
    if tuple(ir for ir, _ in pairs) != names:
        raise ArchDataError(f"{where}: must list exactly {', '.join(names)} in this order")
    return tuple(pairs)


def _parse_flavor(entry: Any, index: int) -> Flavor:
    named = isinstance(entry, dict) and isinstance(entry.get("name"), str)
    where = f"{FLAVORS_FILE}: flavor '{entry['name'] if named else index}'"
    row = check_keys(entry, _FLAVOR_KEYS, where)
    overrides = []
    for i, item in enumerate(want_list(row["intrinsic_overrides"], f"{where}.intrinsic_overrides")):
        owhere = f"{where}.intrinsic_overrides[{i}]"
        item = check_keys(item, _OVERRIDE_KEYS, owhere)
        params = tuple(want_str(p, f"{owhere}.params") for p in want_list(item["params"], f"{owhere}.params"))
        overrides.append(IntrinsicOverride(want_str(item["name"], f"{owhere}.name"),
                                           want_str(item["ret"], f"{owhere}.ret"), params))
    want_unique([o.name for o in overrides], f"{where}.intrinsic_overrides")
    return Flavor(
        name=want_str(row["name"], f"{where}.name"),
        llvm_major=want_int(row["llvm_major"], f"{where}.llvm_major"),
        llvmlite_min=want_str(row["llvmlite_min"], f"{where}.llvmlite_min"),
        llvmlite_max=want_str(row["llvmlite_max"], f"{where}.llvmlite_max"),
        nocapture=want_str(row["nocapture"], f"{where}.nocapture"),
        intrinsic_overrides=tuple(overrides),
    )


def parse_flavor_data(text: str) -> FlavorData:
    """Parse and check flavors.toml text; raises ArchDataError with a fixed message."""
    doc = check_keys(parse_toml(text, FLAVORS_FILE), ("format", "llvm", "flavor"), FLAVORS_FILE)
    if doc["format"] != FLAVORS_FORMAT:
        raise ArchDataError(f"{FLAVORS_FILE}: format must be '{FLAVORS_FORMAT}'")
    where = f"{FLAVORS_FILE}: llvm"
    llvm_row = check_keys(doc["llvm"], ("scalar_types",), where)
    llvm = LlvmFacts(scalar_types=ir_pairs(llvm_row["scalar_types"], _IR_SCALARS, str, f"{where}.scalar_types"))
    flavors = tuple(_parse_flavor(entry, i) for i, entry in enumerate(want_list(doc["flavor"], FLAVORS_FILE)))
    if not flavors:
        raise ArchDataError(f"{FLAVORS_FILE}: no [[flavor]] rows")
    names = [f.name for f in flavors]
    want_unique(names, f"{FLAVORS_FILE}: flavor")
    if names != sorted(names):
        raise ArchDataError(f"{FLAVORS_FILE}: flavor rows must be sorted by name")
    return FlavorData(llvm, flavors)


_DATA = parse_flavor_data(read_data_text(FLAVORS_FILE))

FLAVOR_NAMES: tuple[str, ...] = tuple(f.name for f in _DATA.flavors)
LLVM: LlvmFacts = _DATA.llvm


def flavor_data() -> FlavorData:
    """The parsed contents of the packaged flavors.toml."""
    return _DATA


def get_flavor(name: str) -> Flavor:
    """The flavor row called `name`; ValueError listing the known flavors otherwise."""
    for flavor in _DATA.flavors:
        if flavor.name == name:
            return flavor
    shown = name if isinstance(name, str) else type(name).__name__
    raise ValueError(f"unknown flavor '{shown}'; known flavors: {', '.join(FLAVOR_NAMES)}")
