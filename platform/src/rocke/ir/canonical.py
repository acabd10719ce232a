"""canonicalize: renumber value ids 0, 1, 2, ... in the order their definitions appear in the text
(params, then for each op its results, then each of its regions' arguments and ops). Name hints,
types, attributes and structure are kept, so two kernels are semantically equal exactly when their
canonical texts are byte-equal.
"""

from __future__ import annotations

from .core import KernelDef, Op, Param, Region, Value
from .printer import print_kernel


class _Renumber:
    def __init__(self) -> None:
        self.mapping: dict[int, Value] = {}

    def define(self, value: Value) -> Value:
        new = Value(len(self.mapping), value.type, value.name)
        self.mapping[id(value)] = new
        return new

    def use(self, value: Value, op: Op) -> Value:
        new = self.mapping.get(id(value))
        if new is None:
            raise ValueError(
                f"canonicalize: %{value.id} used by {op.opcode} before its definition "
                "(verify the kernel first)"
            )
        return new

    def region(self, region: Region) -> Region:
        args = tuple(self.define(value) for value in region.args)
        return Region(args, [self.op(op) for op in region.ops])

    def op(self, op: Op) -> Op:
        operands = tuple(self.use(value, op) for value in op.operands)
        results = tuple(self.define(value) for value in op.results)
        regions = tuple(self.region(region) for region in op.regions)
        return Op(op.opcode, operands, results, op.attrs, regions)


def canonicalize(kernel: KernelDef) -> KernelDef:
    """A copy of kernel with canonical ids (kernel itself is not changed)."""
    renumber = _Renumber()
    params = tuple(Param(renumber.define(p.value), p.attrs) for p in kernel.params)
    body = renumber.region(kernel.body)
    return KernelDef(kernel.name, params, kernel.attrs, body)


def equivalent(a: KernelDef, b: KernelDef) -> bool:
    """Semantic equality: equal canonical texts."""
    return print_kernel(canonicalize(a)) == print_kernel(canonicalize(b))
