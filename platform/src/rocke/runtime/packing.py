"""Kernel parameter buffers: the arguments of a launch packed as the kernel's parameter space.

A layout places the arguments in order, each at the next multiple of its alignment (its size):
a pointer is an 8-byte device address, `i32` / `i64` little-endian two's complement, `f32` an IEEE
binary32 (rounded to nearest even from the Python float). That is the parameter space of an NVPTX
`.entry` (PTX ISA: `.param` state space, natural alignment) and the explicit kernel arguments of
an AMDGPU kernarg segment (`.amdhsa` metadata `.args`: `.offset`, `.size`); the tests check both
against real compiler output. The layout comes from a launch contract (`contract_layout`) or from
the kernel itself (`kernel_layout`); the two agree for every family (a test checks it).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rocke.families.launch import LaunchContract
from rocke.ir import KernelDef, PtrType, ScalarType, parse_type

from .errors import PackError

POINTER_SPACES = ("global", "constant")  # address spaces a kernel argument may point into
SCALARS = {"i32": "<i", "i64": "<q", "f32": "<f"}  # IR scalar type -> struct format
POINTER_FORMAT = "<Q"
ALLOWED = "ptr<T, global>, ptr<T, constant>, " + ", ".join(SCALARS)


@dataclass(frozen=True)
class ParamSlot:
    """One argument in the parameter buffer."""

    name: str
    type: str  # IR type text
    kind: str  # "pointer" | "int" | "float"
    offset: int
    size: int

    @property
    def format(self) -> str:
        return POINTER_FORMAT if self.kind == "pointer" else SCALARS[self.type]


@dataclass(frozen=True)
class ParamLayout:
    slots: tuple[ParamSlot, ...]
    size: int  # bytes: the end of the last slot

    def pack(self, values: Sequence[Any]) -> bytes:
        """The parameter buffer for `values` (one per slot, in order): device addresses (ints)
        for pointers, ints for integer scalars, floats (or ints) for f32; numpy scalars too."""
        if len(values) != len(self.slots):
            raise PackError(f"the kernel takes {len(self.slots)} argument(s), got {len(values)}")
        out = bytearray(self.size)
        for slot, value in zip(self.slots, values, strict=True):
            struct.pack_into(slot.format, out, slot.offset, _checked(slot, value))
        return bytes(out)

    def unpack(self, data: bytes) -> list[int | float]:
        """The values of a parameter buffer (the inverse of pack, floats as Python floats)."""
        if len(data) != self.size:
            raise PackError(f"a parameter buffer of this kernel holds {self.size} bytes, got {len(data)}")
        return [struct.unpack_from(slot.format, data, slot.offset)[0] for slot in self.slots]


def _checked(slot: ParamSlot, value: Any) -> int | float:
    what = f"argument {slot.name} ({slot.type})"
    if isinstance(value, bool | np.bool_):
        raise PackError(f"{what}: needs {'a device address' if slot.kind == 'pointer' else slot.type}, got a bool")
    if slot.kind == "float":
        if not isinstance(value, int | float | np.integer | np.floating):
            raise PackError(f"{what}: needs a float, got {type(value).__name__}")
        try:
            struct.pack(slot.format, float(value))
        except OverflowError:
            raise PackError(f"{what}: {value!r} is out of the f32 range") from None
        return float(value)
    if not isinstance(value, int | np.integer):
        needed = "a device address (int)" if slot.kind == "pointer" else "an int"
        raise PackError(f"{what}: needs {needed}, got {type(value).__name__}")
    value = int(value)
    bits = 8 * slot.size
    low, high = (0, 2**bits - 1) if slot.kind == "pointer" else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
    if not low <= value <= high:
        raise PackError(f"{what}: {value} is outside {low}..{high}")
    return value


def slot_kind(name: str, type_text: str) -> tuple[str, int]:
    """(kind, size) of an argument of IR type `type_text`; PackError naming the allowed types."""
    try:
        ty = parse_type(type_text)
    except ValueError:
        ty = None
    if isinstance(ty, PtrType) and ty.space in POINTER_SPACES:
        return "pointer", 8
    if isinstance(ty, ScalarType) and ty.name in SCALARS:
        return ("float" if ty.name.startswith("f") else "int"), struct.calcsize(SCALARS[ty.name])
    raise PackError(f"argument {name}: type '{type_text}' cannot be a kernel argument (allowed: {ALLOWED})")


def param_layout(args: Iterable[tuple[str, str]]) -> ParamLayout:
    """The layout of (name, IR type text) arguments in order."""
    slots, offset = [], 0
    for name, type_text in args:
        kind, size = slot_kind(name, type_text)
        offset = -(-offset // size) * size
        slots.append(ParamSlot(name, type_text, kind, offset, size))
        offset += size
    return ParamLayout(tuple(slots), offset)


def contract_layout(contract: LaunchContract) -> ParamLayout:
    """The parameter layout of a launch contract's arguments."""
    return param_layout((arg.name, arg.type) for arg in contract.args)


def kernel_layout(kernel: KernelDef) -> ParamLayout:
    """The parameter layout of a kernel's params (named by their name hints, else by position)."""
    return param_layout((param.name or f"#{i}", param.type.text) for i, param in enumerate(kernel.params))
