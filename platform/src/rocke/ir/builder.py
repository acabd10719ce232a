"""Builder: writes KernelDefs with typed helpers, one per op of ops.toml (same names in C++).

Style: host-time decisions are plain Python (if/for unroll at build time); device-time control flow
uses callbacks:

    b = Builder("axpy", max_workgroup_size=256)
    x = b.param("x", ptr(f32, "global"), noalias=True, readonly=True)
    n = b.param("n", i32)
    tid = b.thread_id_x(name="tid")

    def body(i, acc):                   # region args: induction variable, then iter values
        return [b.add(acc, b.sitofp(i, f32))]   # returned values become scf.yield

    (total,) = b.for_(b.const(0, i32), n, b.const(1, i32), [b.const(0.0, f32)], body, names=["acc"])
    b.if_(b.cmpi("slt", tid, n), lambda: b.store(x, tid, total))
    kernel = b.finish()

Every helper takes name= (a result name hint). Result types come from the op's type rule; ops whose
rule is explicit (casts, buffer_load, lds_alloc, const) take the result type as an argument. Type
errors raise TypeError naming the op and the types; bad attribute values raise ValueError. Helper
names that are keywords in Python or C++ end with "_" (and_, or_, xor_, for_, if_); const is also
available as const_, the spelling of the C++ twin (const is a C++ keyword).
finish() numbers values in text order (canonical ids) and verifies the kernel.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .attrs import KERNEL_ATTRS, PARAM_ATTRS, AttrValue, check_attr_value, normalize_num
from .constraints import PARAM_TYPES
from .core import KernelDef, Op, Param, Region, Value
from .errors import OpCheckError
from .facts import MAX_REGION_DEPTH
from .names import is_hint, is_kernel_name
from .optable import OP_BY_NAME, OpDef, get_op
from .scope import ContextScope
from .typecheck import check_op, check_operand_count, check_operand_types
from .types import Type
from .types import ptr as make_ptr
from .verifier import verify as run_verify
from .verifier import verify_once

_YIELD = OP_BY_NAME["scf.yield"]
_FOR = OP_BY_NAME["scf.for"]
_IF = OP_BY_NAME["scf.if"]

Yielded = Value | Sequence[Value] | None


def _raise_for(opdef: OpDef, exc: OpCheckError) -> None:
    message = f"{opdef.name}: {exc.detail}"
    if exc.rule == "attr":
        raise ValueError(message) from None
    raise TypeError(message) from None


class defer_finish_verify(ContextScope):  # a context manager: lower case, as contextlib's (C++: ir::DeferFinishVerify)
    """While active (in this thread / context), Builder.finish(verify=True) does not verify the
    kernel; it counts the kernels left unverified (``deferred``) and the owner of the scope
    verifies them, or, on any failure, builds again without the scope, so the first error is the
    one finish would raise. One-pass emitters (rocke.gates.emitters.emit_python) verify a kernel
    once for its arch instead of in finish and again in every lower()."""

    def __init__(self) -> None:
        self.deferred = 0


class Builder:
    """Builds one KernelDef. See the module docstring for the style."""

    def __init__(self, name: str, *, max_workgroup_size: int | None = None, waves_per_eu: int | None = None):
        if not is_kernel_name(name):
            raise ValueError(f"invalid kernel name '{name}': use letters, digits and '_' (not first a digit)")
        given = {"max_workgroup_size": max_workgroup_size, "waves_per_eu": waves_per_eu}
        self._kernel_attrs: dict[str, Any] = {}
        for adef in KERNEL_ATTRS:
            value = given.get(adef.name)
            value = adef.default if value is None else value
            problem = check_attr_value(adef, value, None)
            if problem is not None:
                raise ValueError(f"kernel @{name}: {problem}")
            self._kernel_attrs[adef.name] = value
        self._name = name
        self._params: list[Param] = []
        self._body = Region()
        self._regions: list[Region] = [self._body]
        self._next_id = 0
        self._finished = False

    # ------------------------------------------------------------------ plumbing
    def _new_value(self, ty: Type, name: str | None) -> Value:
        if name is not None and not is_hint(name):
            raise ValueError(
                f"invalid name hint '{name}': use letters, digits, '_' and '.' (not first a digit)"
            )
        value = Value(self._next_id, ty, name)
        self._next_id += 1
        return value

    def _live(self) -> None:
        if self._finished:
            raise ValueError(f"builder of kernel @{self._name} is finished")

    @staticmethod
    def _types(opdef: OpDef, operands: Sequence[Any]) -> tuple[Type, ...]:
        types = []
        for index, value in enumerate(operands):
            if not isinstance(value, Value):
                raise TypeError(f"{opdef.name}: operand #{index} must be a Value, got {type(value).__name__}")
            types.append(value.type)
        return tuple(types)

    def _attrs(self, opdef: OpDef, given: dict[str, Any]) -> dict[str, AttrValue]:
        attrs: dict[str, AttrValue] = {}
        for adef in opdef.attrs:
            value = given.get(adef.name)
            if value is None:
                value = adef.default
            if value is None:
                raise ValueError(f"{opdef.name}: missing attribute '{adef.name}'")
            attrs[adef.name] = value
        for key in sorted(given):
            if opdef.attr(key) is None:
                raise ValueError(f"{opdef.name}: unknown attribute '{key}'")
        return attrs

    def _emit(
        self,
        opdef: OpDef,
        operands: tuple[Any, ...],
        attrs: dict[str, AttrValue],
        result_types: tuple[Type, ...] | None,
        names: Sequence[str | None] | None,
    ) -> tuple[Value, ...]:
        self._live()
        types = self._types(opdef, operands)
        if result_types is not None:
            for ty in result_types:
                if not isinstance(ty, Type):
                    raise TypeError(f"{opdef.name}: result type must be a Type, got {type(ty).__name__}")
        try:
            result_types = check_op(opdef, types, attrs, result_types)
        except OpCheckError as exc:
            _raise_for(opdef, exc)
        if opdef.placement == "kernel_body" and len(self._regions) != 1:
            raise ValueError(f"{opdef.name}: only allowed directly in the kernel body")
        if names is None:
            names = (None,) * len(result_types)  # type: ignore[arg-type]
        elif len(names) != len(result_types):  # type: ignore[arg-type]
            raise ValueError(f"{opdef.name}: {len(names)} names for {len(result_types)} results")  # type: ignore[arg-type]
        results = tuple(self._new_value(ty, nm) for ty, nm in zip(result_types, names, strict=True))  # type: ignore[arg-type]
        op = Op(opdef.name, operands, results, attrs)
        op.checked_at_emission = True
        self._regions[-1].ops.append(op)
        return results

    def _one(
        self,
        opcode: str,
        operands: tuple[Any, ...],
        attrs: dict[str, AttrValue],
        result_type: Type | None,
        name: str | None,
    ) -> Value:
        opdef = OP_BY_NAME[opcode]
        types = None if result_type is None else (result_type,)
        return self._emit(opdef, operands, attrs, types, (name,))[0]

    def _none(self, opcode: str, operands: tuple[Any, ...], attrs: dict[str, AttrValue]) -> None:
        self._emit(OP_BY_NAME[opcode], operands, attrs, None, ())

    # ------------------------------------------------------------------ kernel interface
    def param(
        self,
        name: str,
        type: Type,
        *,
        align: int | None = None,
        noalias: bool | None = None,
        readonly: bool | None = None,
        writeonly: bool | None = None,
    ) -> Value:
        """Declare the next kernel parameter (all params come before the first op)."""
        self._live()
        if self._next_id != len(self._params):
            raise ValueError(f"param '{name}': params must be declared before the first op")
        if not isinstance(type, Type):
            raise TypeError(f"param '{name}': type must be a Type, got {_type_name(type)}")
        if not PARAM_TYPES.admits(type):
            raise TypeError(f"param '{name}': type {type.text} is not allowed; allowed: {PARAM_TYPES.text}")
        given = {"align": align, "noalias": noalias, "readonly": readonly, "writeonly": writeonly}
        attrs: dict[str, AttrValue] = {}
        for adef in PARAM_ATTRS:
            value = given.get(adef.name)
            if not type.is_ptr:
                if value is not None:
                    raise ValueError(
                        f"param '{name}': attribute '{adef.name}' applies only to pointer params"
                    )
                continue
            value = adef.default if value is None else value
            problem = check_attr_value(adef, value, None)
            if problem is not None:
                raise ValueError(f"param '{name}': {problem}")
            attrs[adef.name] = value
        value = self._new_value(type, name)
        self._params.append(Param(value, attrs))
        return value

    def emit(
        self,
        opcode: str,
        operands: Sequence[Value] = (),
        attrs: dict[str, AttrValue] | None = None,
        result_types: Sequence[Type] | None = None,
        names: Sequence[str | None] | None = None,
    ) -> tuple[Value, ...]:
        """Generic form of every helper (ops without regions). Missing attributes take table defaults."""
        opdef = get_op(opcode)
        if opdef.regions or opdef.placement == "terminator":
            raise ValueError(f"{opcode}: use for_ / if_ (regions and their yields come from callbacks)")
        types = tuple(result_types) if result_types is not None else None
        return self._emit(opdef, tuple(operands), self._attrs(opdef, dict(attrs or {})), types, names)

    def finish(self, *, verify: bool = True) -> KernelDef:
        """Number values in text order (canonical ids), optionally verify, and return the kernel
        (inside defer_finish_verify the verification is the scope owner's)."""
        self._live()
        self._finished = True
        counter = 0
        for param in self._params:
            param.value.id = counter
            counter += 1
        _renumber_region(self._body, counter)
        kernel = KernelDef(self._name, tuple(self._params), self._kernel_attrs, self._body)
        once = verify_once.active()
        if once is not None:
            once.built.append(kernel.body)
        if verify:
            scope = defer_finish_verify.active()
            if scope is None:
                run_verify(kernel)
            else:
                scope.deferred += 1
        return kernel

    # ------------------------------------------------------------------ device control flow
    def _region(
        self,
        region: Region,
        callback: Callable[..., Yielded],
        args: tuple[Value, ...],
        opname: str,
        what: str,
    ) -> tuple[Value, ...]:
        if len(self._regions) >= MAX_REGION_DEPTH:
            raise ValueError(f"{opname}: region nesting deeper than {MAX_REGION_DEPTH}")
        self._regions.append(region)
        try:
            yielded = callback(*args)
        finally:
            self._regions.pop()
        if yielded is None:
            values: tuple[Value, ...] = ()
        elif isinstance(yielded, Value):
            values = (yielded,)
        else:
            values = tuple(yielded)
        for value in values:
            if not isinstance(value, Value):
                raise TypeError(
                    f"{opname}: the {what} callback must return Values, got {type(value).__name__}"
                )
        region.ops.append(Op(_YIELD.name, values))
        return values

    def for_(
        self,
        lb: Value,
        ub: Value,
        step: Value,
        init: Sequence[Value],
        body: Callable[..., Yielded],
        *,
        names: Sequence[str | None] | None = None,
        iv_name: str | None = None,
    ) -> list[Value]:
        """scf.for: body(iv, *iter_values) returns the next iter values; returns the final ones.

        names hint both the iter region arguments and the results.
        """
        self._live()
        operands = (lb, ub, step, *init)
        types = self._types(_FOR, operands)
        try:
            result_types = check_op(_FOR, types, {})
        except OpCheckError as exc:
            _raise_for(_FOR, exc)
        hints = list(names) if names is not None else [None] * len(init)
        if len(hints) != len(init):
            raise ValueError(f"scf.for: {len(hints)} names for {len(init)} iter values")
        iv = self._new_value(lb.type, iv_name)
        args = tuple(self._new_value(ty, nm) for ty, nm in zip(result_types, hints, strict=True))
        region = Region((iv, *args))
        yielded = self._region(region, body, (iv, *args), "scf.for", "body")
        got = tuple(v.type for v in yielded)
        if got != result_types:
            raise TypeError(
                f"scf.for: body yields ({', '.join(t.text for t in got)}) but the iter values have types "
                f"({', '.join(t.text for t in result_types)})"
            )
        results = tuple(self._new_value(ty, nm) for ty, nm in zip(result_types, hints, strict=True))
        self._regions[-1].ops.append(Op(_FOR.name, operands, results, {}, (region,)))
        return list(results)

    def if_(
        self,
        cond: Value,
        then: Callable[[], Yielded],
        else_: Callable[[], Yielded] | None = None,
        *,
        names: Sequence[str | None] | None = None,
    ) -> list[Value]:
        """scf.if: then() and else_() return the values each branch yields; returns the results."""
        self._live()
        types = self._types(_IF, (cond,))
        try:
            check_operand_count(_IF, 1)
            check_operand_types(_IF, types)
        except OpCheckError as exc:
            _raise_for(_IF, exc)
        then_region, else_region = Region(), Region()
        then_values = self._region(then_region, then, (), "scf.if", "then")
        else_values = self._region(else_region, else_ or _no_values, (), "scf.if", "else")
        then_types = tuple(v.type for v in then_values)
        else_types = tuple(v.type for v in else_values)
        if then_types != else_types:
            raise TypeError(
                f"scf.if: then yields ({', '.join(t.text for t in then_types)}) but else yields "
                f"({', '.join(t.text for t in else_types)})"
            )
        hints = list(names) if names is not None else [None] * len(then_types)
        if len(hints) != len(then_types):
            raise ValueError(f"scf.if: {len(hints)} names for {len(then_types)} results")
        results = tuple(self._new_value(ty, nm) for ty, nm in zip(then_types, hints, strict=True))
        self._regions[-1].ops.append(Op(_IF.name, (cond,), results, {}, (then_region, else_region)))
        return list(results)

    # ------------------------------------------------------------------ arith
    def const(self, value: int | float | bool, type: Type, *, name: str | None = None) -> Value:
        """arith.constant; ints wrap to the signed form, floats round to nearest even in type."""
        num = normalize_num(value, type)
        return self._one("arith.constant", (), {"value": num}, type, name)

    const_ = const

    def add(self, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.add", (lhs, rhs), {}, None, name)

    def sub(self, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.sub", (lhs, rhs), {}, None, name)

    def mul(self, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.mul", (lhs, rhs), {}, None, name)

    def divf(self, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.divf", (lhs, rhs), {}, None, name)

    def remf(self, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.remf", (lhs, rhs), {}, None, name)

    def divs(self, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.divs", (lhs, rhs), {}, None, name)

    def divu(self, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.divu", (lhs, rhs), {}, None, name)

    def rems(self, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.rems", (lhs, rhs), {}, None, name)

    def remu(self, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.remu", (lhs, rhs), {}, None, name)

    def and_(self, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.and", (lhs, rhs), {}, None, name)

    def or_(self, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.or", (lhs, rhs), {}, None, name)

    def xor_(self, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.xor", (lhs, rhs), {}, None, name)

    def shl(self, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.shl", (lhs, rhs), {}, None, name)

    def shrs(self, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.shrs", (lhs, rhs), {}, None, name)

    def shru(self, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.shru", (lhs, rhs), {}, None, name)

    def negf(self, x: Value, *, name: str | None = None) -> Value:
        return self._one("arith.negf", (x,), {}, None, name)

    def minf(self, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.minf", (lhs, rhs), {}, None, name)

    def maxf(self, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.maxf", (lhs, rhs), {}, None, name)

    def mins(self, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.mins", (lhs, rhs), {}, None, name)

    def maxs(self, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.maxs", (lhs, rhs), {}, None, name)

    def minu(self, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.minu", (lhs, rhs), {}, None, name)

    def maxu(self, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.maxu", (lhs, rhs), {}, None, name)

    def fma(self, a: Value, b: Value, c: Value, *, name: str | None = None) -> Value:
        return self._one("arith.fma", (a, b, c), {}, None, name)

    def cmpi(self, pred: str, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.cmpi", (lhs, rhs), {"pred": pred}, None, name)

    def cmpf(self, pred: str, lhs: Value, rhs: Value, *, name: str | None = None) -> Value:
        return self._one("arith.cmpf", (lhs, rhs), {"pred": pred}, None, name)

    def select(self, cond: Value, a: Value, b: Value, *, name: str | None = None) -> Value:
        return self._one("arith.select", (cond, a, b), {}, None, name)

    def extf(self, x: Value, type: Type, *, name: str | None = None) -> Value:
        return self._one("arith.extf", (x,), {}, type, name)

    def truncf(self, x: Value, type: Type, *, name: str | None = None) -> Value:
        return self._one("arith.truncf", (x,), {}, type, name)

    def sitofp(self, x: Value, type: Type, *, name: str | None = None) -> Value:
        return self._one("arith.sitofp", (x,), {}, type, name)

    def uitofp(self, x: Value, type: Type, *, name: str | None = None) -> Value:
        return self._one("arith.uitofp", (x,), {}, type, name)

    def fptosi(self, x: Value, type: Type, *, name: str | None = None) -> Value:
        return self._one("arith.fptosi", (x,), {}, type, name)

    def fptoui(self, x: Value, type: Type, *, name: str | None = None) -> Value:
        return self._one("arith.fptoui", (x,), {}, type, name)

    def exts(self, x: Value, type: Type, *, name: str | None = None) -> Value:
        return self._one("arith.exts", (x,), {}, type, name)

    def extu(self, x: Value, type: Type, *, name: str | None = None) -> Value:
        return self._one("arith.extu", (x,), {}, type, name)

    def trunc(self, x: Value, type: Type, *, name: str | None = None) -> Value:
        return self._one("arith.trunc", (x,), {}, type, name)

    # ------------------------------------------------------------------ math
    def exp2(self, x: Value, *, name: str | None = None) -> Value:
        return self._one("math.exp2", (x,), {}, None, name)

    def log2(self, x: Value, *, name: str | None = None) -> Value:
        return self._one("math.log2", (x,), {}, None, name)

    def rcp(self, x: Value, *, name: str | None = None) -> Value:
        return self._one("math.rcp", (x,), {}, None, name)

    def sqrt(self, x: Value, *, name: str | None = None) -> Value:
        return self._one("math.sqrt", (x,), {}, None, name)

    def rsqrt(self, x: Value, *, name: str | None = None) -> Value:
        return self._one("math.rsqrt", (x,), {}, None, name)

    # ------------------------------------------------------------------ gpu
    def thread_id_x(self, *, name: str | None = None) -> Value:
        return self._one("gpu.thread_id_x", (), {}, None, name)

    def thread_id_y(self, *, name: str | None = None) -> Value:
        return self._one("gpu.thread_id_y", (), {}, None, name)

    def thread_id_z(self, *, name: str | None = None) -> Value:
        return self._one("gpu.thread_id_z", (), {}, None, name)

    def block_id_x(self, *, name: str | None = None) -> Value:
        return self._one("gpu.block_id_x", (), {}, None, name)

    def block_id_y(self, *, name: str | None = None) -> Value:
        return self._one("gpu.block_id_y", (), {}, None, name)

    def block_id_z(self, *, name: str | None = None) -> Value:
        return self._one("gpu.block_id_z", (), {}, None, name)

    def block_dim_x(self, *, name: str | None = None) -> Value:
        return self._one("gpu.block_dim_x", (), {}, None, name)

    def block_dim_y(self, *, name: str | None = None) -> Value:
        return self._one("gpu.block_dim_y", (), {}, None, name)

    def block_dim_z(self, *, name: str | None = None) -> Value:
        return self._one("gpu.block_dim_z", (), {}, None, name)

    def lane_id(self, *, name: str | None = None) -> Value:
        return self._one("gpu.lane_id", (), {}, None, name)

    def wave_id(self, *, name: str | None = None) -> Value:
        return self._one("gpu.wave_id", (), {}, None, name)

    def wave_size(self, *, name: str | None = None) -> Value:
        return self._one("gpu.wave_size", (), {}, None, name)

    # ------------------------------------------------------------------ mem
    def load(
        self,
        ptr: Value,
        index: Value,
        *,
        lanes: int | None = None,
        align: int | None = None,
        name: str | None = None,
    ) -> Value:
        opdef = OP_BY_NAME["mem.load"]
        return self._one(
            opdef.name, (ptr, index), self._attrs(opdef, {"align": align, "lanes": lanes}), None, name
        )

    def store(self, ptr: Value, index: Value, value: Value, *, align: int | None = None) -> None:
        opdef = OP_BY_NAME["mem.store"]
        self._none(opdef.name, (ptr, index, value), self._attrs(opdef, {"align": align}))

    def ptr_add(self, ptr: Value, index: Value, *, name: str | None = None) -> Value:
        return self._one("mem.ptr_add", (ptr, index), {}, None, name)

    def make_rsrc(self, base: Value, num_records: Value, *, name: str | None = None) -> Value:
        return self._one("mem.make_rsrc", (base, num_records), {}, None, name)

    def buffer_load(self, rsrc: Value, offset: Value, type: Type, *, name: str | None = None) -> Value:
        return self._one("mem.buffer_load", (rsrc, offset), {}, type, name)

    def buffer_store(self, rsrc: Value, offset: Value, value: Value) -> None:
        self._none("mem.buffer_store", (rsrc, offset, value), {})

    def lds_alloc(
        self, pointee: Type, count: int, *, align: int | None = None, name: str | None = None
    ) -> Value:
        """LDS allocation of count pointees; returns ptr<pointee, lds>."""
        try:
            result = make_ptr(pointee, "lds")  # type: ignore[arg-type]
        except (TypeError, ValueError) as exc:
            raise TypeError(f"mem.lds_alloc: {exc}") from None
        opdef = OP_BY_NAME["mem.lds_alloc"]
        return self._one(opdef.name, (), self._attrs(opdef, {"align": align, "count": count}), result, name)

    def lds_load(
        self,
        ptr: Value,
        index: Value,
        *,
        lanes: int | None = None,
        align: int | None = None,
        name: str | None = None,
    ) -> Value:
        opdef = OP_BY_NAME["mem.lds_load"]
        return self._one(
            opdef.name, (ptr, index), self._attrs(opdef, {"align": align, "lanes": lanes}), None, name
        )

    def lds_store(self, ptr: Value, index: Value, value: Value, *, align: int | None = None) -> None:
        opdef = OP_BY_NAME["mem.lds_store"]
        self._none(opdef.name, (ptr, index, value), self._attrs(opdef, {"align": align}))

    def atomic_add_f32(self, ptr: Value, index: Value, value: Value) -> None:
        self._none("mem.atomic_add_f32", (ptr, index, value), {})

    # ------------------------------------------------------------------ xlane
    def ds_swizzle(self, x: Value, pattern: int, *, name: str | None = None) -> Value:
        return self._one("xlane.ds_swizzle", (x,), {"pattern": pattern}, None, name)

    def ds_bpermute(self, addr: Value, x: Value, *, name: str | None = None) -> Value:
        return self._one("xlane.ds_bpermute", (addr, x), {}, None, name)

    def readfirstlane(self, x: Value, *, name: str | None = None) -> Value:
        return self._one("xlane.readfirstlane", (x,), {}, None, name)

    def shuffle_xor(self, x: Value, mask: int, *, name: str | None = None) -> Value:
        return self._one("xlane.shuffle_xor", (x,), {"mask": mask}, None, name)

    # ------------------------------------------------------------------ sync
    def barrier(self) -> None:
        self._none("sync.barrier", (), {})

    def wave_lds_fence(self) -> None:
        """Lanes of one wave see each other's LDS stores made before it (no workgroup barrier)."""
        self._none("sync.wave_lds_fence", (), {})

    def waitcnt(self, *, vmcnt: int | None = None, lgkmcnt: int | None = None) -> None:
        opdef = OP_BY_NAME["sync.waitcnt"]
        self._none(opdef.name, (), self._attrs(opdef, {"lgkmcnt": lgkmcnt, "vmcnt": vmcnt}))

    # ------------------------------------------------------------------ mma
    def mma(self, op_id: str, a: Value, b: Value, c: Value, *, name: str | None = None) -> Value:
        """D = A * B + C with catalog op op_id; the arch check happens in verify(kernel, arch)."""
        return self._one("mma.mma", (a, b, c), {"op_id": op_id}, None, name)

    # ------------------------------------------------------------------ vec
    def extract(self, v: Value, index: int, *, name: str | None = None) -> Value:
        return self._one("vec.extract", (v,), {"index": index}, None, name)

    def insert(self, v: Value, x: Value, index: int, *, name: str | None = None) -> Value:
        return self._one("vec.insert", (v, x), {"index": index}, None, name)

    def splat(self, x: Value, lanes: int, *, name: str | None = None) -> Value:
        return self._one("vec.splat", (x,), {"lanes": lanes}, None, name)

    def bitcast(self, x: Value, type: Type, *, name: str | None = None) -> Value:
        return self._one("vec.bitcast", (x,), {}, type, name)


def _no_values() -> None:
    return None


def _type_name(value: object) -> str:
    return type(value).__name__


def _renumber_region(region: Region, counter: int) -> int:
    """Assign ids in text order: for each op its results, then each region's args and ops."""
    for op in region.ops:
        for value in op.results:
            value.id = counter
            counter += 1
        for inner in op.regions:
            for value in inner.args:
                value.id = counter
                counter += 1
            counter = _renumber_region(inner, counter)
    return counter
