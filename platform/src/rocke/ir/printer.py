"""print_kernel: a KernelDef as rocke.ir/1 text (LF endings, final newline, 2 spaces per depth).

    rocke.ir/1
    kernel @NAME {kernel attrs}
    param %ID "HINT" : TYPE {param attrs}
    body {
      %ID "HINT" : TYPE, ... = OPCODE %A, %B {attrs} REGION-NAME(ARGS) {
        ...
      } REGION-NAME {
        ...
      }
    }

Hints, the attribute dict, region argument lists are omitted when empty. Attributes are sorted by
name and typed; floats are binary64 bit patterns in hex. The printer trusts its input: verify first.
"""

from __future__ import annotations

from .attrs import KERNEL_ATTRS, PARAM_ATTRS, format_attr
from .core import KernelDef, Op, Region, Value
from .facts import INDENT, VERSION
from .optable import get_op


def _def(value: Value) -> str:
    if value.name:
        return f'%{value.id} "{value.name}" : {value.type.text}'
    return f"%{value.id} : {value.type.text}"


def _attr_dict(op: Op) -> str:
    opdef = get_op(op.opcode)
    if not opdef.attrs:
        return ""
    num_type = op.results[0].type if op.results else None
    parts = [format_attr(adef.kind, adef.name, op.attrs[adef.name], num_type) for adef in opdef.attrs]
    return " {" + ", ".join(parts) + "}"


def _print_region(region: Region, depth: int, out: list[str]) -> None:
    pad = " " * (INDENT * depth)
    for op in region.ops:
        head = pad
        if op.results:
            head += ", ".join(_def(v) for v in op.results) + " = "
        head += op.opcode
        if op.operands:
            head += " " + ", ".join(f"%{v.id}" for v in op.operands)
        head += _attr_dict(op)
        if not op.regions:
            out.append(head + "\n")
            continue
        opdef = get_op(op.opcode)
        for rdef, inner in zip(opdef.regions, op.regions, strict=True):
            args = "(" + ", ".join(_def(v) for v in inner.args) + ")" if inner.args else ""
            out.append(f"{head} {rdef.name}{args} {{\n")
            _print_region(inner, depth + 1, out)
            head = pad + "}"
        out.append(head + "\n")


def print_kernel(kernel: KernelDef) -> str:
    """The canonical text of kernel (ids as they are; canonicalize first for canonical ids)."""
    out = [VERSION, "\n"]
    kattrs = ", ".join(format_attr(a.kind, a.name, kernel.attrs[a.name], None) for a in KERNEL_ATTRS)
    out.append(f"kernel @{kernel.name} {{{kattrs}}}\n")
    for param in kernel.params:
        line = "param " + _def(param.value)
        if param.value.type.is_ptr:
            pattrs = ", ".join(format_attr(a.kind, a.name, param.attrs[a.name], None) for a in PARAM_ATTRS)
            line += f" {{{pattrs}}}"
        out.append(line + "\n")
    out.append("body {\n")
    _print_region(kernel.body, 1, out)
    out.append("}\n")
    return "".join(out)
