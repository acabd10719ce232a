"""The protocol the verifier needs from an arch (rocke.arch.ArchTarget implements it)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from .types import Type


@runtime_checkable
class ArchLike(Protocol):
    """What verify(kernel, arch) asks of a target."""

    name: str

    def has_feature(self, feature: str) -> bool:
        """Whether the target has the named feature (e.g. "global_atomic_fadd_f32")."""
        ...

    def mma_signature(self, op_id: str) -> tuple[Type, Type, Type] | None:
        """(A, B, C/D) fragment types of MMA op_id on this target; None if unknown or unavailable."""
        ...
