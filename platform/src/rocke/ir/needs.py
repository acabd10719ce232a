"""What a kernel asks of an arch: the features its ops name and the MMA op_ids it uses."""

from __future__ import annotations

from dataclasses import dataclass

from .core import KernelDef
from .optable import get_op


@dataclass(frozen=True)
class KernelNeeds:
    """Sorted, duplicate-free feature names and MMA op_ids."""

    features: tuple[str, ...]
    mma_op_ids: tuple[str, ...]

    def satisfied_by(self, arch: object) -> bool:
        """True when arch (an ArchLike) has every feature and every MMA op_id."""
        return all(arch.has_feature(f) for f in self.features) and all(  # type: ignore[attr-defined]
            arch.mma_signature(op_id) is not None
            for op_id in self.mma_op_ids  # type: ignore[attr-defined]
        )


def kernel_needs(kernel: KernelDef) -> KernelNeeds:
    features: set[str] = set()
    op_ids: set[str] = set()
    for op in kernel.walk():
        opdef = get_op(op.opcode)
        if opdef.feature:
            features.add(opdef.feature)
        if opdef.arch_rule == "mma_signature":
            op_ids.add(str(op.attrs["op_id"]))
    return KernelNeeds(tuple(sorted(features)), tuple(sorted(op_ids)))
