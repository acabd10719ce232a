"""FunctionEmitter: the state of lowering one kernel body into LLVM IR lines.

It maps IR values to their LLVM operand text, hands out temporaries and block labels, tracks the
current block (phis name their predecessors), records the intrinsic declarations used (checking
each against the arch-domain table) and keeps the op location for error messages.
"""

from __future__ import annotations

from collections.abc import Callable

from rocke.arch import (
    ArchTarget,
    Flavor,
    IntrinsicDecl,
    IntrinsicDef,
    arch_domain_status,
    instantiate,
    intrinsic_def,
)
from rocke.ir.core import Op, Region, Value
from rocke.ir.types import Type

from .errors import LowerError
from .llvm_types import elem_of, lanes_of, llvm_type, pointer_text
from .names import value_name

INDENT = "  "

_ABSENT_REASON = {
    "arch-absent": "LLVM cannot select it there",
    "name-absent": "this LLVM does not know it",
}


def int_attr(op: Op, name: str) -> int:
    """An integer attribute of a verified op."""
    value = op.attrs[name]
    assert isinstance(value, int)
    return value


class FunctionEmitter:
    def __init__(
        self,
        arch: ArchTarget,
        flavor: Flavor,
        lds_offsets: dict[int, int],
        lower_op: Callable[[FunctionEmitter, Op], None],
    ) -> None:
        self.arch = arch
        self.target = arch.vendor_target  # triple, address spaces, buffer resource type
        self.lower_op = lower_op  # lowers one op (the dispatcher), also for ops inside regions
        self.flavor = flavor
        self.lds_offsets = lds_offsets  # result id of each mem.lds_alloc -> byte offset in the pool
        self.lines: list[str] = []
        self.values: dict[int, str] = {}  # value id -> operand text (a %name or a constant)
        self.decls: dict[str, IntrinsicDecl] = {}  # declaration name -> declaration
        self.current = "entry"  # label of the block being filled
        self._temps = 0
        self._scf_ops = 0
        self.where = "kernel"  # location of the op being lowered, for errors
        self.loc = "body"  # its path (body[3].then[0]), from which nested region paths start

    # --- text -------------------------------------------------------------------------------------
    def emit(self, line: str) -> None:
        self.lines.append(INDENT + line)

    def label(self, name: str) -> None:
        self.lines.append(f"{name}:")
        self.current = name

    def temp(self) -> str:
        name = f"%t{self._temps}"
        self._temps += 1
        return name

    def next_scf_id(self) -> int:
        number = self._scf_ops
        self._scf_ops += 1
        return number

    # --- values -----------------------------------------------------------------------------------
    def bind(self, value: Value) -> str:
        """Give value its %name (for an instruction or phi that defines it) and return the name."""
        name = value_name(value)
        self.values[value.id] = name
        return name

    def alias(self, value: Value, text: str) -> None:
        """value is the constant (or existing operand) text: no instruction defines it."""
        self.values[value.id] = text

    def ref(self, value: Value) -> str:
        return self.values[value.id]

    def llvm_type(self, ty: Type) -> str:
        """ty as LLVM IR text on this kernel's target."""
        return llvm_type(ty, self.target)

    def pointer_text(self, space: str) -> str:
        return pointer_text(space, self.target)

    def typed(self, value: Value) -> str:
        return f"{self.llvm_type(value.type)} {self.ref(value)}"

    # --- errors -----------------------------------------------------------------------------------
    def error(self, what: str) -> LowerError:
        return LowerError(self.where, what)

    # --- intrinsics -------------------------------------------------------------------------------
    def declare(self, row: IntrinsicDef, elem: str = "", lanes: int = 0) -> IntrinsicDecl:
        """The flavor's declaration of row (overloads filled in), checked against the arch domain."""
        decl = instantiate(row, self.flavor.name, elem, lanes)
        if decl.name not in self.decls:
            status = arch_domain_status(decl.domain_key, self.arch.name, self.flavor.name)
            if status is None:
                raise self.error(
                    f"intrinsic '{decl.domain_key}' has no arch-domain entry for flavor {self.flavor.name}; "
                    "regenerate rocke/arch/data/arch_domain.toml with platform/tools/probe_arch_domain.py"
                )
            if status != "ok":
                raise self.error(
                    f"intrinsic '{decl.domain_key}' is outside the arch domain of {self.arch.name} under flavor "
                    f"{self.flavor.name} ({status}: {_ABSENT_REASON[status]})"
                )
            self.decls[decl.name] = decl
        return decl

    def call(self, decl: IntrinsicDecl, args: list[str], result: str | None) -> str | None:
        """Emit a call of decl with argument texts (without types); result is the %name to define
        (None for void intrinsics). Returns result."""
        typed_args = ", ".join(f"{ty} {arg}" for ty, arg in zip(decl.arg_types, args, strict=True))
        call = f"call {decl.ret} @{decl.name}({typed_args})"
        if result is None:
            self.emit(call)
        else:
            self.emit(f"{result} = {call}")
        return result

    def call_named(self, name: str, args: list[str], result: str | None, elem: str = "", lanes: int = 0) -> str | None:
        return self.call(self.declare(intrinsic_def(name), elem, lanes), args, result)

    def call_into(self, decl: IntrinsicDecl, args: list[str], result: Value) -> None:
        """result = a call of decl; when decl returns another spelling of result's type (an i32
        word for an f32, <2 x i32> for four f16 lanes), the call's temporary is bitcast into it."""
        result_type = self.llvm_type(result.type)
        if decl.ret == result_type:
            self.call(decl, args, self.bind(result))
            return
        raw = self.temp()
        self.call(decl, args, raw)
        self.emit(f"{self.bind(result)} = bitcast {decl.ret} {raw} to {result_type}")

    def call_float(self, name: str, op: Op) -> None:
        """op's result = the intrinsic name, overloaded on the result's float type, of op's operands."""
        ty = op.results[0].type
        args = [self.ref(v) for v in op.operands]
        self.call_named(name, args, self.bind(op.results[0]), elem_of(ty).name, lanes_of(ty))

    def operand_as(self, value: Value, want: str) -> str:
        """value as an operand of LLVM type want: its text, or a bitcast of it when its type is
        spelled differently (an f32 as an i32 word, bf16 lanes as i16 lanes)."""
        if self.llvm_type(value.type) == want:
            return self.ref(value)
        cast = self.temp()
        self.emit(f"{cast} = bitcast {self.typed(value)} to {want}")
        return cast

    # --- regions ----------------------------------------------------------------------------------
    def lower_ops(self, ops: list[Op], path: str) -> None:
        """Lower ops (the kernel body, or a region: its scf.yield is its parent's business) in order."""
        for index, op in enumerate(ops):
            if op.opcode == "scf.yield":
                continue
            saved = (self.where, self.loc)
            first = f" %{op.results[0].id}" if op.results else ""
            self.loc = f"{path}[{index}]"
            self.where = f"{op.opcode}{first} at {self.loc}"
            self.lower_op(self, op)
            self.where, self.loc = saved

    def lower_region(self, region: Region, path: str) -> tuple[Value, ...]:
        """Lower a region's ops into the current block onwards; returns the values it yields."""
        self.lower_ops(region.ops, path)
        return region.ops[-1].operands
