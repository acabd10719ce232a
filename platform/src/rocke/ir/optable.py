"""The op registry, built from data/ops.toml (the single source of op signatures)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .attrs import AttrDef, attr_defs_from_rows
from .constraints import Constraint
from .facts import load_data_file
from .types import Type

TYPE_RULES = (
    "none",
    "fixed",
    "explicit",
    "same_as_operand0",
    "same_as_operand1",
    "same_as_operand2",
    "cmp_i1",
    "cast",
    "cast_wider",
    "cast_narrower",
    "cast_same_bits",
    "load",
    "elem_of_operand0",
    "splat",
    "iter_args",
)
# Rules whose result types the author states (the Builder takes them as an argument).
EXPLICIT_RULES = ("explicit", "cast", "cast_wider", "cast_narrower", "cast_same_bits")
CHECKS = ("store_value", "vec_index", "insert_elem")
PLACEMENTS = ("any", "kernel_body", "terminator")
REGION_ARGS = ("none", "for_body")
ARCH_RULES = ("", "mma_signature")
_OP_KEYS = (
    "name",
    "builder",
    "summary",
    "operands",
    "results",
    "attrs",
    "type_rule",
    "pure",
    "convergent",
    "feature",
    "arch_rule",
    "checks",
    "placement",
    "regions",
)


@dataclass(frozen=True)
class OperandDef:
    """An operand or result slot: name, type constraint, and whether it takes zero or more values."""

    name: str
    constraint: Constraint
    variadic: bool


@dataclass(frozen=True)
class RegionDef:
    name: str
    args: str
    terminator: str


@dataclass(frozen=True)
class OpDef:
    """One row of ops.toml."""

    name: str
    builder: str
    summary: str
    operands: tuple[OperandDef, ...]
    results: tuple[OperandDef, ...]
    attrs: tuple[AttrDef, ...]
    type_rule: str
    pure: bool
    convergent: bool
    feature: str
    arch_rule: str
    checks: tuple[str, ...]
    placement: str
    regions: tuple[RegionDef, ...]

    @property
    def dialect(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def fixed_operand_count(self) -> int:
        """Operands before the variadic group (all of them when there is none)."""
        return len(self.operands) - (1 if self.variadic_operands else 0)

    @property
    def variadic_operands(self) -> bool:
        return bool(self.operands) and self.operands[-1].variadic

    @property
    def variadic_results(self) -> bool:
        return bool(self.results) and self.results[-1].variadic

    def attr(self, name: str) -> AttrDef | None:
        for adef in self.attrs:
            if adef.name == name:
                return adef
        return None


def _slots(rows: list[dict[str, Any]], where: str, is_operand: bool) -> tuple[OperandDef, ...]:
    slots: list[OperandDef] = []
    names: list[str] = []
    for index, row in enumerate(rows):
        if set(row) - {"name", "type", "variadic"} or "name" not in row or "type" not in row:
            raise ValueError(f"{where}: bad slot {row!r}")
        variadic = bool(row.get("variadic", False))
        if variadic and index != len(rows) - 1:
            raise ValueError(f"{where}: only the last slot may be variadic")
        earlier = tuple(names) if is_operand else ()
        try:
            constraint = Constraint(row["type"], earlier)
        except ValueError as exc:
            raise ValueError(f"{where}: slot '{row['name']}': {exc}") from None
        slots.append(OperandDef(row["name"], constraint, variadic))
        names.append(row["name"])
    return tuple(slots)


def _op_from_row(row: dict[str, Any]) -> OpDef:
    name = row.get("name", "?")
    where = f"ops.toml op '{name}'"
    if sorted(row) != sorted(_OP_KEYS):
        raise ValueError(f"{where}: keys must be exactly {', '.join(_OP_KEYS)}")
    regions = []
    for reg in row["regions"]:
        if sorted(reg) != ["args", "name", "terminator"] or reg["args"] not in REGION_ARGS:
            raise ValueError(f"{where}: bad region {reg!r}")
        regions.append(RegionDef(reg["name"], reg["args"], reg["terminator"]))
    opdef = OpDef(
        name=name,
        builder=row["builder"],
        summary=row["summary"],
        operands=_slots(row["operands"], where, True),
        results=_slots(row["results"], where, False),
        attrs=attr_defs_from_rows(row["attrs"], where),
        type_rule=row["type_rule"],
        pure=row["pure"],
        convergent=row["convergent"],
        feature=row["feature"],
        arch_rule=row["arch_rule"],
        checks=tuple(row["checks"]),
        placement=row["placement"],
        regions=tuple(regions),
    )
    if opdef.type_rule not in TYPE_RULES:
        raise ValueError(f"{where}: unknown type_rule '{opdef.type_rule}'")
    if any(check not in CHECKS for check in opdef.checks):
        raise ValueError(f"{where}: unknown check in {list(opdef.checks)}")
    if opdef.placement not in PLACEMENTS or opdef.arch_rule not in ARCH_RULES:
        raise ValueError(f"{where}: unknown placement or arch_rule")
    if opdef.type_rule == "fixed" and any(r.constraint.single_type() is None for r in opdef.results):
        raise ValueError(f"{where}: type_rule fixed needs one concrete type per result")
    if "." not in name:
        raise ValueError(f"{where}: op names are dialect.op")
    return opdef


def _load_ops() -> tuple[OpDef, ...]:
    ops = tuple(_op_from_row(row) for row in load_data_file("ops.toml")["op"])
    names = [op.name for op in ops]
    if len(set(names)) != len(names):
        raise ValueError("ops.toml: duplicate op names")
    builders = [op.builder for op in ops if op.builder]
    if len(set(builders)) != len(builders):
        raise ValueError("ops.toml: duplicate builder names")
    known = set(names)
    for op in ops:
        for reg in op.regions:
            if reg.terminator not in known:
                raise ValueError(f"ops.toml op '{op.name}': unknown terminator '{reg.terminator}'")
    return ops


OPS: tuple[OpDef, ...] = _load_ops()
OP_BY_NAME: dict[str, OpDef] = {op.name: op for op in OPS}
TERMINATORS: frozenset[str] = frozenset(op.name for op in OPS if op.placement == "terminator")


def get_op(name: str) -> OpDef:
    """The OpDef of opcode name; ValueError for an unknown opcode."""
    opdef = OP_BY_NAME.get(name)
    if opdef is None:
        raise ValueError(f"unknown op '{name}'")
    return opdef


def fixed_result_types(opdef: OpDef) -> tuple[Type, ...]:
    """Result types of a type_rule = fixed op."""
    return tuple(r.constraint.single_type() for r in opdef.results)  # type: ignore[misc]
