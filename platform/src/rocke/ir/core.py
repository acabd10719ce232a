"""The IR objects: Value (SSA), Op, Region, Param and KernelDef.

Values are compared by identity; their id is the number printed as %id. Ops hold operand and
result Values, a dict of attributes and a tuple of Regions. A KernelDef is the unit of printing,
parsing, verification and lowering.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .attrs import AttrValue
from .optable import OpDef, get_op
from .types import Type


class Value:
    """An SSA value: id (printed %id), type, optional name hint (kept through text round trips)."""

    __slots__ = ("id", "name", "type")

    def __init__(self, id: int, type: Type, name: str | None = None) -> None:
        self.id = id
        self.type = type
        self.name = name

    def __bool__(self) -> bool:
        raise TypeError(
            f"device values cannot drive Python control flow (value %{self.id} : {self.type}); "
            "use Builder.if_ or Builder.select for device-time decisions"
        )

    def __repr__(self) -> str:
        hint = f' "{self.name}"' if self.name else ""
        return f"Value(%{self.id}{hint} : {self.type})"


class Region:
    """A list of ops with block arguments (scf.for's induction variable and iter values)."""

    __slots__ = ("args", "ops")

    def __init__(self, args: tuple[Value, ...] = (), ops: list[Op] | None = None) -> None:
        self.args = tuple(args)
        self.ops: list[Op] = ops if ops is not None else []

    def __repr__(self) -> str:
        return f"Region(args={len(self.args)}, ops={len(self.ops)})"


class Op:
    """One operation: opcode (a name in ops.toml), operands, results, attributes, regions."""

    __slots__ = ("attrs", "checked_at_emission", "opcode", "operands", "regions", "results")

    def __init__(
        self,
        opcode: str,
        operands: tuple[Value, ...] = (),
        results: tuple[Value, ...] = (),
        attrs: dict[str, AttrValue] | None = None,
        regions: tuple[Region, ...] = (),
    ) -> None:
        self.opcode = opcode
        self.operands = tuple(operands)
        self.results = tuple(results)
        self.attrs: dict[str, AttrValue] = dict(attrs) if attrs else {}
        self.regions = tuple(regions)
        # Builder._emit ran check_op on this op's operand types, attrs and result types as made: a
        # verify inside the verify_once scope that saw the kernel finished need not run it again.
        self.checked_at_emission = False

    @property
    def opdef(self) -> OpDef:
        return get_op(self.opcode)

    @property
    def result(self) -> Value:
        """The single result (ValueError unless the op has exactly one)."""
        if len(self.results) != 1:
            raise ValueError(f"{self.opcode} has {len(self.results)} results, not 1")
        return self.results[0]

    def __repr__(self) -> str:
        res = ", ".join(f"%{v.id}" for v in self.results)
        args = ", ".join(f"%{v.id}" for v in self.operands)
        return f"Op({res + ' = ' if res else ''}{self.opcode} {args})"


class Param:
    """A kernel parameter: its Value and its attributes (every pointer param carries all of them)."""

    __slots__ = ("attrs", "value")

    def __init__(self, value: Value, attrs: dict[str, AttrValue] | None = None) -> None:
        self.value = value
        self.attrs: dict[str, AttrValue] = dict(attrs) if attrs else {}

    @property
    def name(self) -> str | None:
        return self.value.name

    @property
    def type(self) -> Type:
        return self.value.type

    def __repr__(self) -> str:
        return f"Param({self.value!r})"


class KernelDef:
    """A kernel: name, params, kernel attributes (max_workgroup_size, waves_per_eu) and body."""

    __slots__ = ("attrs", "body", "name", "params")

    def __init__(self, name: str, params: tuple[Param, ...], attrs: dict[str, Any], body: Region) -> None:
        self.name = name
        self.params = tuple(params)
        self.attrs: dict[str, Any] = dict(attrs)
        self.body = body

    def walk(self) -> Iterator[Op]:
        """Every op in text order (an op before the ops of its regions)."""
        stack: list[Iterator[Op]] = [iter(self.body.ops)]
        while stack:
            op = next(stack[-1], None)
            if op is None:
                stack.pop()
                continue
            yield op
            for region in reversed(op.regions):
                stack.append(iter(region.ops))

    def op_count(self) -> int:
        return sum(1 for _ in self.walk())

    def __repr__(self) -> str:
        return f"KernelDef(@{self.name}, params={len(self.params)}, ops={len(self.body.ops)})"
