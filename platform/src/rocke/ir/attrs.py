"""Attribute definitions (ops, kernels, params): checking, Builder-side normalization, text form.

Attribute kinds: bool, i32, i64, str, num. A num attribute holds an int or float whose type is the
op's first result type (arith.constant's value). Python values: bool, int, int, str, int|float.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .facts import IR_FACTS
from .floats import format_float_hex, is_representable, round_to_format
from .types import ScalarType, Type

ATTR_KINDS = ("bool", "i32", "i64", "str", "num")
_INT_KIND_BITS = {"i32": 32, "i64": 64}
_OPTIONAL_KEYS = ("default", "min", "max", "zero_or_pow2", "enum")

AttrValue = bool | int | float | str


@dataclass(frozen=True)
class AttrDef:
    """One attribute of an op, kernel or param, as written in the data files."""

    name: str
    kind: str
    default: AttrValue | None = None
    min: int | None = None
    max: int | None = None
    zero_or_pow2: bool = False
    enum: tuple[str, ...] | None = None


def attr_def_from_row(row: dict[str, Any], where: str) -> AttrDef:
    """Build an AttrDef from a TOML table, refusing unknown keys and kinds."""
    unknown = sorted(set(row) - {"name", "type", *_OPTIONAL_KEYS})
    if unknown or "name" not in row or "type" not in row:
        raise ValueError(f"{where}: attribute row {row!r} has unknown or missing keys")
    if row["type"] not in ATTR_KINDS:
        raise ValueError(f"{where}: attribute '{row['name']}' has unknown type '{row['type']}'")
    enum = row.get("enum")
    adef = AttrDef(
        name=row["name"],
        kind=row["type"],
        default=row.get("default"),
        min=row.get("min"),
        max=row.get("max"),
        zero_or_pow2=bool(row.get("zero_or_pow2", False)),
        enum=tuple(enum) if enum is not None else None,
    )
    if adef.kind in _INT_KIND_BITS and (adef.min is None or adef.max is None):
        raise ValueError(f"{where}: integer attribute '{adef.name}' needs both min and max")
    if adef.default is not None and adef.kind != "num":
        problem = check_attr_value(adef, adef.default, None)
        if problem is not None:
            raise ValueError(f"{where}: default of {problem}")
    return adef


def attr_defs_from_rows(rows: list[dict[str, Any]], where: str) -> tuple[AttrDef, ...]:
    """A sorted, duplicate-free tuple of AttrDefs."""
    defs = tuple(attr_def_from_row(row, where) for row in rows)
    names = [d.name for d in defs]
    if names != sorted(set(names)):
        raise ValueError(f"{where}: attributes must be unique and sorted by name, got {names}")
    return defs


def int_range(ty: ScalarType) -> tuple[int, int]:
    """Inclusive range of int attribute values of type ty: two's complement signed; i1 is 0..1."""
    if ty.bits == 1:
        return 0, 1
    half = 1 << (ty.bits - 1)
    return -half, half - 1


def _value_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    return type(value).__name__


def is_plain_string(text: str) -> bool:
    """Strings in the text format: printable ASCII without '"' and '\\' (no escapes exist)."""
    return all(" " <= ch <= "~" and ch not in '"\\' for ch in text)


def check_attr_value(adef: AttrDef, value: Any, num_type: Type | None) -> str | None:
    """None when value is valid for adef, else a message starting with "attribute '<name>'"."""
    head = f"attribute '{adef.name}'"
    kind = adef.kind
    got = _value_kind(value)
    if kind == "bool":
        return None if got == "bool" else f"{head} must be a bool value, got {got}"
    if kind == "str":
        if got != "str":
            return f"{head} must be a str value, got {got}"
        if not is_plain_string(value):
            return f"{head} must be printable ASCII without '\"' or '\\'"
        if adef.enum is not None and value not in adef.enum:
            return f"{head} = '{value}' is not one of: {', '.join(adef.enum)}"
        return None
    if kind in _INT_KIND_BITS:
        if got != "int":
            return f"{head} must be an {kind} value, got {got}"
        half = 1 << (_INT_KIND_BITS[kind] - 1)
        if not -half <= value < half:
            return f"{head} = {value} does not fit in {kind}"
        if (adef.min is not None and value < adef.min) or (adef.max is not None and value > adef.max):
            return f"{head} = {value} is out of range {adef.min}..{adef.max}"
        if adef.zero_or_pow2 and value & (value - 1) != 0:
            return f"{head} = {value} must be 0 or a power of two"
        return None
    # num: typed by the op's first result type
    if not isinstance(num_type, ScalarType):
        shown = num_type.text if num_type is not None else "none"
        return f"{head} needs an int or float scalar result type, got {shown}"
    if num_type.is_int:
        if got != "int":
            return f"{head} must be an int value for type {num_type.text}, got {got}"
        low, high = int_range(num_type)
        if not low <= value <= high:
            return f"{head} = {value} does not fit in {num_type.text} (range {low}..{high})"
        return None
    if got != "float":
        return f"{head} must be a float value for type {num_type.text}, got {got}"
    if not is_representable(value, num_type.exp_bits, num_type.man_bits):
        return f"{head} = {format_float_hex(value)} is not exactly representable in {num_type.text}"
    return None


def normalize_num(value: Any, ty: Type) -> int | float:
    """Builder convenience: the canonical attribute value of a constant of type ty.

    Ints may be given signed or unsigned (wrapped to the signed form; i1 keeps 0/1), bools count as
    ints, floats are rounded to nearest even in ty. Raises TypeError/ValueError naming the type.
    """
    if not isinstance(ty, ScalarType):
        shown = ty.text if isinstance(ty, Type) else type(ty).__name__
        raise TypeError(f"arith.constant: type must be an int or float scalar type, got {shown}")
    if isinstance(value, bool):
        value = int(value)
    if ty.is_int:
        if not isinstance(value, int):
            raise TypeError(
                f"arith.constant: {ty.text} constant needs an int value, got {_value_kind(value)}"
            )
        low = -(1 << (ty.bits - 1))
        high = (1 << ty.bits) - 1
        if not low <= value <= high:
            raise ValueError(f"arith.constant: value {value} does not fit in {ty.text}")
        if ty.bits == 1:
            return value & 1
        value &= (1 << ty.bits) - 1
        return value - (1 << ty.bits) if value >> (ty.bits - 1) else value
    if not isinstance(value, (int, float)):
        raise TypeError(f"arith.constant: {ty.text} constant needs a float value, got {_value_kind(value)}")
    try:
        as_float = float(value)
    except OverflowError:
        as_float = float("inf") if value > 0 else float("-inf")
    return round_to_format(as_float, ty.exp_bits, ty.man_bits)


def format_attr(adef_kind: str, name: str, value: AttrValue, num_type: Type | None) -> str:
    """Text form "name = VALUE : TYPE" of one attribute."""
    if adef_kind == "bool":
        return f"{name} = {'true' if value else 'false'} : bool"
    if adef_kind == "str":
        return f'{name} = "{value}" : str'
    if adef_kind == "num":
        shown = format_float_hex(value) if isinstance(value, float) else str(value)  # type: ignore[arg-type]
        return f"{name} = {shown} : {num_type.text if num_type is not None else '?'}"
    return f"{name} = {value} : {adef_kind}"


KERNEL_ATTRS: tuple[AttrDef, ...] = attr_defs_from_rows(IR_FACTS["kernel_attr"], "ir.toml kernel_attr")
PARAM_ATTRS: tuple[AttrDef, ...] = attr_defs_from_rows(IR_FACTS["param_attr"], "ir.toml param_attr")
