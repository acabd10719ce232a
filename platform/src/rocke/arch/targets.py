"""Targets (data/targets.toml): what rocke.lower writes per vendor target and which toolchain
validates it.

A target row holds the triple, the kernel calling convention, the LLVM type of a buffer resource,
the address space numbers and the datalayout each flavor's LLVM reports for the triple. Every arch
of archs.toml names its target; `ArchTarget.vendor_target` is how the lowerer reaches it, and
rocke.isa.codegen_target (whose `toolchain` picks the compile path) how the toolchain does.
"""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch.datafile import (
    check_keys,
    parse_toml,
    read_data_text,
    want_choice,
    want_int,
    want_list,
    want_str,
    want_unique,
)
from rocke.arch.errors import ArchDataError
from rocke.arch.flavors import FLAVOR_NAMES, ir_pairs

TARGETS_FILE = "targets.toml"
TARGETS_FORMAT = "rocke.targets/1"

VENDORS = ("amd", "nvidia")
TOOLCHAINS = ("amdgpu", "ptxas")
_TARGET_KEYS = ("name", "vendor", "triple", "kernel_cc", "toolchain", "rsrc_type", "lds_pool", "static_lds_bytes",
                "address_spaces", "datalayouts")
# Every rocke.ir address space must have an LLVM number, in this order.
IR_SPACES = ("global", "constant", "lds", "private")


@dataclass(frozen=True)
class Target:
    """One row of targets.toml."""

    name: str
    vendor: str
    triple: str
    kernel_cc: str
    toolchain: str
    rsrc_type: str
    lds_pool: str  # the name of the module's LDS pool global
    static_lds_bytes: int  # the most LDS a module declares statically; 0 = no limit below the arch's
    address_spaces: tuple[tuple[str, int], ...]  # (rocke.ir space, LLVM address space)
    datalayouts: tuple[tuple[str, str], ...]  # (flavor, datalayout), in flavor order

    def address_space(self, ir_space: str) -> int:
        for ir, number in self.address_spaces:
            if ir == ir_space:
                return number
        raise ValueError(f"no LLVM address space for '{ir_space}'")

    def datalayout(self, flavor: str) -> str:
        for name, layout in self.datalayouts:
            if name == flavor:
                return layout
        raise ValueError(f"target '{self.name}' has no datalayout for flavor '{flavor}'")


def _parse_target(entry: object, index: int) -> Target:
    named = isinstance(entry, dict) and isinstance(entry.get("name"), str)
    where = f"{TARGETS_FILE}: target '{entry['name'] if named else index}'"  # type: ignore[index]
    row = check_keys(entry, _TARGET_KEYS, where)
    layouts = []
    for i, item in enumerate(want_list(row["datalayouts"], f"{where}.datalayouts")):
        item = check_keys(item, ("flavor", "value"), f"{where}.datalayouts[{i}]")
        layouts.append((want_str(item["flavor"], f"{where}.datalayouts[{i}].flavor"),
                        want_str(item["value"], f"{where}.datalayouts[{i}].value")))
    if tuple(name for name, _ in layouts) != FLAVOR_NAMES:
        raise ArchDataError(f"{where}.datalayouts: must list exactly {', '.join(FLAVOR_NAMES)} in this order")
    return Target(
        name=want_str(row["name"], f"{where}.name"),
        vendor=want_choice(row["vendor"], VENDORS, f"{where}.vendor"),
        triple=want_str(row["triple"], f"{where}.triple"),
        kernel_cc=want_str(row["kernel_cc"], f"{where}.kernel_cc"),
        toolchain=want_choice(row["toolchain"], TOOLCHAINS, f"{where}.toolchain"),
        rsrc_type=want_str(row["rsrc_type"], f"{where}.rsrc_type"),
        lds_pool=want_str(row["lds_pool"], f"{where}.lds_pool"),
        static_lds_bytes=want_int(row["static_lds_bytes"], f"{where}.static_lds_bytes"),
        address_spaces=ir_pairs(row["address_spaces"], IR_SPACES, int, f"{where}.address_spaces"),
        datalayouts=tuple(layouts),
    )


def parse_target_data(text: str) -> tuple[Target, ...]:
    """Parse and check targets.toml text; raises ArchDataError with a fixed message."""
    doc = check_keys(parse_toml(text, TARGETS_FILE), ("format", "target"), TARGETS_FILE)
    if doc["format"] != TARGETS_FORMAT:
        raise ArchDataError(f"{TARGETS_FILE}: format must be '{TARGETS_FORMAT}'")
    targets = tuple(_parse_target(entry, i) for i, entry in enumerate(want_list(doc["target"], TARGETS_FILE)))
    if not targets:
        raise ArchDataError(f"{TARGETS_FILE}: no [[target]] rows")
    names = [t.name for t in targets]
    want_unique(names, f"{TARGETS_FILE}: target")
    if names != sorted(names):
        raise ArchDataError(f"{TARGETS_FILE}: target rows must be sorted by name")
    return targets


TARGETS: tuple[Target, ...] = parse_target_data(read_data_text(TARGETS_FILE))
TARGET_NAMES: tuple[str, ...] = tuple(t.name for t in TARGETS)


def get_target(name: str) -> Target:
    """The target row called `name`; ValueError listing the known targets otherwise."""
    for target in TARGETS:
        if target.name == name:
            return target
    shown = name if isinstance(name, str) else type(name).__name__
    raise ValueError(f"unknown target '{shown}'; known targets: {', '.join(TARGET_NAMES)}")
