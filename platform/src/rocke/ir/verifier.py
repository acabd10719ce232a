"""verify(kernel, arch=None): the IR rules every engine checks before lowering.

Rules (the [rule] tag of VerifyError): kernel, param, attr, name, structure, opcode, dominance,
ssa, arity, type, addrspace, placement, region, yield, arch. The walk is in text order and stops at
the first failure, so the message is deterministic. Locations are paths such as body[3].then[0]
(op index within each region, region names from ops.toml).
"""

from __future__ import annotations

from typing import Any

from .archlike import ArchLike, resolve_arch_like
from .attrs import KERNEL_ATTRS, PARAM_ATTRS, AttrDef
from .constraints import PARAM_TYPES
from .core import KernelDef, Op, Region, Value
from .errors import OpCheckError, VerifyError
from .facts import MAX_REGION_DEPTH, MAX_VALUE_ID
from .names import is_hint, is_kernel_name
from .optable import OP_BY_NAME, OpDef, RegionDef
from .scope import ContextScope
from .typecheck import check_attrs, check_op
from .types import Type


def verify(kernel: KernelDef, arch: ArchLike | str | None = None) -> None:
    """Raise VerifyError on the first broken rule; with arch (an ArchTarget or an arch name), also
    check op legality for it. Any other arch is a TypeError, an unknown name an UnknownArchError.
    Inside a verify_once scope, a kernel already verified for the same arch there passes at once."""
    target = resolve_arch_like(arch, "verify")
    active = verify_once.active() if isinstance(kernel, KernelDef) else None
    scope = active if target is not None else None
    if scope is not None and scope.has(kernel, target):
        return
    _Verifier(kernel, target, active is not None and active.built_here(kernel)).run()
    if scope is not None:
        scope.verified.append((kernel.body, target))


class verify_once(ContextScope):  # a context manager: lower case, as contextlib's (C++: ir::VerifyOnce)
    """While active (in this thread / context), verify(kernel, arch) of a kernel that passed
    verify(kernel, arch) for the same arch object in this scope returns at once; a kernel is known
    by its body Region. One-pass emitters (rocke.gates.emitters.emit_python) open one around a
    family's build, whose builder verifies its kernel for the arch, and their own verification, so
    the kernel is walked once. Nothing may change a kernel between the two calls. A kernel a Builder
    finished in the scope (finish() records it) also skips, in verify, the op check of each op the
    builder checked at emission (Op.checked_at_emission: the same check_op on the same operand
    types, attrs and result types); the verifier's other rules (structure, ids, dominance,
    placement, arch, regions, yields) still run. Nothing may change a kernel between its ops'
    emission and that verify either."""

    def __init__(self) -> None:
        self.verified: list[tuple[Region, ArchLike]] = []
        self.built: list[Region] = []

    def has(self, kernel: KernelDef, arch: ArchLike) -> bool:
        return any(body is kernel.body and target is arch for body, target in self.verified)

    def built_here(self, kernel: KernelDef) -> bool:
        return any(body is kernel.body for body in self.built)


def _types_text(types: tuple[Type, ...]) -> str:
    return "(" + ", ".join(t.text for t in types) + ")"


def _check_attr_dict(attrs: Any, defs: tuple[AttrDef, ...], where: str) -> None:
    if not isinstance(attrs, dict):
        raise VerifyError("structure", where, "attributes must be a dict")
    try:
        check_attrs(defs, attrs, None)
    except OpCheckError as exc:
        raise VerifyError(exc.rule, where, exc.detail) from None


class _Verifier:
    def __init__(self, kernel: KernelDef, arch: ArchLike | None, emitted_checked: bool) -> None:
        self.kernel = kernel
        self.arch = arch
        # The kernel was finished in the active verify_once, so an op checked at emission skips
        # check_op here (the verify_once contract: no change since its emission).
        self.emitted_checked = emitted_checked
        self.visible: dict[int, Value] = {}
        self.defined: dict[int, Value] = {}

    def run(self) -> None:
        kernel = self.kernel
        if not isinstance(kernel, KernelDef):
            raise VerifyError("structure", "kernel", f"expected a KernelDef, got {type(kernel).__name__}")
        where = f"kernel @{kernel.name}"
        if not is_kernel_name(kernel.name):
            raise VerifyError("kernel", "kernel", "invalid kernel name")
        _check_attr_dict(kernel.attrs, KERNEL_ATTRS, where)
        for index, param in enumerate(kernel.params):
            self._param(index, param)
        body = kernel.body
        if not isinstance(body, Region) or body.args:
            raise VerifyError("region", where, "the body must be a Region without arguments")
        self._region(body, "body", 1, None)

    def _define(self, value: Any, where: str, what: str) -> Value:
        if not isinstance(value, Value) or not isinstance(value.type, Type):
            raise VerifyError("structure", where, f"{what} must be a Value with a Type")
        if not isinstance(value.id, int) or isinstance(value.id, bool) or not 0 <= value.id <= MAX_VALUE_ID:
            raise VerifyError("structure", where, f"{what} has an invalid id")
        if value.id in self.defined:
            raise VerifyError("ssa", where, f"value id %{value.id} is defined twice")
        if value.name is not None and not is_hint(value.name):
            raise VerifyError("name", where, f"{what} %{value.id} has an invalid name hint")
        self.defined[value.id] = value
        return value

    def _param(self, index: int, param: Any) -> None:
        where = f"param #{index}"
        value = self._define(getattr(param, "value", None), where, "the param value")
        where = f"param #{index} %{value.id}"
        if not PARAM_TYPES.admits(value.type):
            raise VerifyError(
                "param", where, f"type {value.type.text} is not allowed; allowed: {PARAM_TYPES.text}"
            )
        _check_attr_dict(param.attrs, PARAM_ATTRS if value.type.is_ptr else (), where)
        if param.attrs.get("readonly") and param.attrs.get("writeonly"):
            raise VerifyError("param", where, "readonly and writeonly exclude each other")
        self.visible[value.id] = value

    def _region(self, region: Region, path: str, depth: int, rdef: RegionDef | None) -> None:
        """Verify region's ops; its args and results stop being visible when it ends."""
        added = [value.id for value in region.args]
        ops = region.ops
        last = len(ops) - 1
        for index, op in enumerate(ops):
            loc = f"{path}[{index}]"
            if not isinstance(op, Op):
                raise VerifyError("structure", f"op at {loc}", f"expected an Op, got {type(op).__name__}")
            self._op(op, loc, depth, rdef if index == last else None)
            added.extend(value.id for value in op.results)
        for value_id in added:
            self.visible.pop(value_id, None)

    def _where(self, op: Op, loc: str) -> str:
        first = op.results[0] if op.results and isinstance(op.results[0], Value) else None
        ref = f" %{first.id}" if first is not None else ""
        return f"{op.opcode}{ref} at {loc}"

    def _op(self, op: Op, loc: str, depth: int, ending: RegionDef | None) -> None:
        where = self._where(op, loc)
        opdef = OP_BY_NAME.get(op.opcode) if isinstance(op.opcode, str) else None
        if opdef is None:
            raise VerifyError("opcode", where, "unknown op")
        if not isinstance(op.attrs, dict) or any(not isinstance(r, Region) for r in op.regions):
            raise VerifyError("structure", where, "attrs must be a dict and regions Regions")
        types = []
        for index, value in enumerate(op.operands):
            if not isinstance(value, Value) or not isinstance(value.type, Type):
                raise VerifyError("structure", where, f"operand #{index} must be a Value with a Type")
            if self.visible.get(value.id) is not value:
                if self.defined.get(value.id) is value:
                    detail = f"operand #{index} %{value.id} is not visible here"
                else:
                    detail = f"operand #{index} %{value.id} is not defined before this op"
                raise VerifyError("dominance", where, detail)
            types.append(value.type)
        for index, value in enumerate(op.results):
            self._define(value, where, f"result #{index}")
        result_types = tuple(value.type for value in op.results)
        if not (self.emitted_checked and op.checked_at_emission):
            try:
                check_op(opdef, tuple(types), op.attrs, result_types)
            except OpCheckError as exc:
                raise VerifyError(exc.rule, where, exc.detail) from None
        self._placement(opdef, where, depth, ending)
        self._arch(opdef, op, where, tuple(types))
        self._regions(opdef, op, where, loc, depth, tuple(types), result_types)
        for value in op.results:
            self.visible[value.id] = value

    def _placement(self, opdef: OpDef, where: str, depth: int, ending: RegionDef | None) -> None:
        if opdef.placement == "kernel_body" and depth != 1:
            raise VerifyError("placement", where, "only allowed directly in the kernel body")
        if opdef.placement == "terminator" and (ending is None or ending.terminator != opdef.name):
            raise VerifyError("placement", where, "must be the last op of a region it terminates")

    def _arch(self, opdef: OpDef, op: Op, where: str, types: tuple[Type, ...]) -> None:
        arch = self.arch
        if arch is None:
            return
        if opdef.feature and not arch.has_feature(opdef.feature):
            raise VerifyError(
                "arch", where, f"needs feature '{opdef.feature}', which {arch.name} does not have"
            )
        if opdef.arch_rule == "mma_signature":
            op_id = op.attrs["op_id"]
            signature = arch.mma_signature(op_id)  # type: ignore[arg-type]
            if signature is None:
                raise VerifyError("arch", where, f"op_id '{op_id}' is not available on {arch.name}")
            if tuple(signature) != types:
                raise VerifyError(
                    "arch",
                    where,
                    f"op_id '{op_id}' on {arch.name} takes (a, b, c) = {_types_text(tuple(signature))}, "
                    f"got {_types_text(types)}",
                )

    def _regions(
        self,
        opdef: OpDef,
        op: Op,
        where: str,
        loc: str,
        depth: int,
        types: tuple[Type, ...],
        result_types: tuple[Type, ...],
    ) -> None:
        if len(op.regions) != len(opdef.regions):
            raise VerifyError(
                "region", where, f"has {len(op.regions)} regions, expected {len(opdef.regions)}"
            )
        if op.regions and depth >= MAX_REGION_DEPTH:
            raise VerifyError("region", where, f"region nesting deeper than {MAX_REGION_DEPTH}")
        for region, rdef in zip(op.regions, opdef.regions, strict=True):
            if rdef.args == "for_body":
                expected = (types[0], *types[opdef.fixed_operand_count :])
            else:
                expected = ()
            for index, value in enumerate(region.args):
                self._define(value, where, f"region '{rdef.name}' argument #{index}")
            got = tuple(value.type for value in region.args)
            if got != expected:
                raise VerifyError(
                    "region",
                    where,
                    f"region '{rdef.name}' has arguments {_types_text(got)}, "
                    f"expected {_types_text(expected)}",
                )
            for value in region.args:
                self.visible[value.id] = value
            path = f"{loc}.{rdef.name}"
            last = region.ops[-1] if region.ops else None
            if not isinstance(last, Op) or last.opcode != rdef.terminator:
                raise VerifyError("region", where, f"region '{rdef.name}' must end with {rdef.terminator}")
            self._region(region, path, depth + 1, rdef)
            yielded = tuple(value.type for value in region.ops[-1].operands)
            if yielded != result_types:
                raise VerifyError(
                    "yield",
                    where,
                    f"region '{rdef.name}' yields {_types_text(yielded)}, "
                    f"expected {_types_text(result_types)}",
                )
