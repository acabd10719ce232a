"""Table-driven checks of one op: arity, operand constraints, attributes, type rule, extra checks.

Shared by the Builder (which computes result types), the verifier and the parser. Failures raise
OpCheckError(rule, detail); detail never repeats the op name, callers add their own location.
"""

from __future__ import annotations

from typing import Any

from .attrs import AttrDef, check_attr_value
from .errors import OpCheckError
from .optable import EXPLICIT_RULES, OpDef, fixed_result_types
from .types import ScalarType, Type, VecType, i1, vec


def check_operand_count(opdef: OpDef, count: int) -> None:
    fixed = opdef.fixed_operand_count
    if opdef.variadic_operands:
        if count < fixed:
            raise OpCheckError("arity", f"takes at least {fixed} operands, got {count}")
    elif count != fixed:
        raise OpCheckError("arity", f"takes {fixed} operand{'s' if fixed != 1 else ''}, got {count}")


def check_result_count(opdef: OpDef, count: int) -> None:
    if opdef.variadic_results:
        return
    expected = len(opdef.results)
    if count != expected:
        raise OpCheckError("arity", f"produces {expected} result{'s' if expected != 1 else ''}, got {count}")


def check_operand_types(opdef: OpDef, types: tuple[Type, ...]) -> None:
    slots = opdef.operands
    last = len(slots) - 1
    for index, ty in enumerate(types):
        slot = slots[index] if index <= last else slots[last]
        constraint = slot.constraint
        if constraint.same_as is not None:
            ref = types[constraint.same_as]
            if ty != ref:
                raise OpCheckError(
                    "type",
                    f"operand #{index} '{slot.name}' has type {ty.text}, expected {ref.text} "
                    f"(the type of operand #{constraint.same_as} '{constraint.same_as_name}')",
                )
        elif not constraint.admits(ty):
            rule = "addrspace" if constraint.is_address_space_mismatch(ty) else "type"
            raise OpCheckError(
                rule, f"operand #{index} '{slot.name}' has type {ty.text}, expected {constraint.text}"
            )


def check_attrs(defs: tuple[AttrDef, ...], attrs: dict[str, Any], num_type: Type | None) -> None:
    """Exactly the attributes defs lists, with valid values: missing, then unknown, then values."""
    for adef in defs:
        if adef.name not in attrs:
            raise OpCheckError("attr", f"missing attribute '{adef.name}'")
    if len(attrs) != len(defs):
        names = {adef.name for adef in defs}
        for name in sorted(attrs):
            if name not in names:
                raise OpCheckError("attr", f"unknown attribute '{name}'")
    for adef in defs:
        problem = check_attr_value(adef, attrs[adef.name], num_type)
        if problem is not None:
            raise OpCheckError("attr", problem)


def _explicit_results(opdef: OpDef, given: tuple[Type, ...] | None) -> tuple[Type, ...]:
    if given is None:
        raise OpCheckError("type", f"result types must be given (type rule {opdef.type_rule})")
    slots = opdef.results
    last = len(slots) - 1
    for index, ty in enumerate(given):
        slot = slots[index] if index <= last else slots[last]
        if not slot.constraint.admits(ty):
            raise OpCheckError("type", f"result #{index} has type {ty.text}, expected {slot.constraint.text}")
    return given


def _cast_results(opdef: OpDef, source: Type, given: tuple[Type, ...] | None) -> tuple[Type, ...]:
    results = _explicit_results(opdef, given)
    target = results[0]
    rule = opdef.type_rule
    if rule == "cast_same_bits":
        if target.total_bits != source.total_bits:  # type: ignore[attr-defined]
            raise OpCheckError(
                "type",
                f"result type {target.text} has {target.total_bits} bits but operand type {source.text} "  # type: ignore[attr-defined]
                f"has {source.total_bits} (type rule cast_same_bits)",  # type: ignore[attr-defined]
            )
        return results
    if target.is_vec != source.is_vec or target.lanes != source.lanes:  # type: ignore[attr-defined]
        raise OpCheckError(
            "type", f"cannot cast {source.text} to {target.text}: lane counts differ (type rule {rule})"
        )
    src_bits = source.element.bits  # type: ignore[attr-defined]
    dst_bits = target.element.bits  # type: ignore[attr-defined]
    if (rule == "cast_wider" and dst_bits <= src_bits) or (rule == "cast_narrower" and dst_bits >= src_bits):
        relation = "wider" if rule == "cast_wider" else "narrower"
        raise OpCheckError(
            "type",
            f"cannot cast {source.text} to {target.text}: the result element must be {relation} "
            f"(type rule {rule})",
        )
    return results


def _computed_results(opdef: OpDef, types: tuple[Type, ...], attrs: dict[str, Any]) -> tuple[Type, ...]:
    rule = opdef.type_rule
    if rule == "none":
        return ()
    if rule == "fixed":
        return fixed_result_types(opdef)
    if rule == "same_as_operand0":
        return (types[0],)
    if rule == "same_as_operand1":
        return (types[1],)
    if rule == "same_as_operand2":
        return (types[2],)
    if rule == "cmp_i1":
        return (i1,)
    if rule == "elem_of_operand0":
        return (types[0].elem,)  # type: ignore[attr-defined]
    if rule == "iter_args":
        return types[opdef.fixed_operand_count :]
    if rule == "load":
        pointee = types[0].pointee  # type: ignore[attr-defined]
        lanes = attrs["lanes"]
        if lanes == 1:
            return (pointee,)
        if not isinstance(pointee, ScalarType):
            raise OpCheckError(
                "type", f"lanes = {lanes} needs a scalar pointee, but operand #0 has type {types[0].text}"
            )
        return (_make_vec(pointee, lanes),)
    if rule == "splat":
        return (_make_vec(types[0], attrs["lanes"]),)
    raise AssertionError(f"unhandled type rule {rule}")


def _make_vec(elem: Type, lanes: int) -> VecType:
    try:
        return vec(elem, lanes)  # type: ignore[arg-type]
    except (TypeError, ValueError) as exc:
        raise OpCheckError("type", str(exc)) from None


def _run_checks(opdef: OpDef, types: tuple[Type, ...], attrs: dict[str, Any]) -> None:
    for check in opdef.checks:
        if check == "store_value":
            pointee = types[0].pointee  # type: ignore[attr-defined]
            value = types[2]
            if value != pointee and not (
                isinstance(pointee, ScalarType) and isinstance(value, VecType) and value.elem == pointee
            ):
                raise OpCheckError(
                    "type",
                    f"operand #2 '{opdef.operands[2].name}' has type {value.text}, expected the pointee "
                    f"{pointee.text} of operand #0 or a vector of it",
                )
        elif check == "vec_index":
            lanes = types[0].lanes  # type: ignore[attr-defined]
            if attrs["index"] >= lanes:
                raise OpCheckError(
                    "attr", f"attribute 'index' = {attrs['index']} is out of range for {types[0].text}"
                )
        elif check == "insert_elem":
            elem = types[0].elem  # type: ignore[attr-defined]
            if types[1] != elem:
                raise OpCheckError(
                    "type",
                    f"operand #1 '{opdef.operands[1].name}' has type {types[1].text}, expected {elem.text} "
                    f"(the element type of operand #0)",
                )


def check_op(
    opdef: OpDef,
    operand_types: tuple[Type, ...],
    attrs: dict[str, Any],
    result_types: tuple[Type, ...] | None = None,
) -> tuple[Type, ...]:
    """Check one op against its table row and return its result types.

    result_types is required for explicit rules and, when given for computed rules, must equal the
    computed types.
    """
    check_operand_count(opdef, len(operand_types))
    if result_types is not None:
        check_result_count(opdef, len(result_types))
    check_operand_types(opdef, operand_types)
    num_type = result_types[0] if result_types else None
    check_attrs(opdef.attrs, attrs, num_type)
    rule = opdef.type_rule
    if rule in EXPLICIT_RULES:
        if rule == "explicit":
            results = _explicit_results(opdef, result_types)
        else:
            results = _cast_results(opdef, operand_types[0], result_types)
    else:
        results = _computed_results(opdef, operand_types, attrs)
        if result_types is not None and results != result_types:
            if len(results) != len(result_types):
                raise OpCheckError(
                    "type", f"has {len(result_types)} results, expected {len(results)} (type rule {rule})"
                )
            for index, (got, want) in enumerate(zip(result_types, results, strict=True)):
                if got != want:
                    raise OpCheckError(
                        "type",
                        f"result #{index} has type {got.text}, expected {want.text} (type rule {rule})",
                    )
    _run_checks(opdef, operand_types, attrs)
    return results
