"""The protocol the verifier needs from an arch (rocke.arch.ArchTarget implements it), and how an
arch name becomes one.

rocke.ir sits below rocke.arch, so it cannot name ArchTarget. rocke.arch registers its name lookup
here when it is imported (set_arch_resolver); resolve_arch_like imports rocke.arch by name on first
need, so verify(kernel, "gfx942") works whatever the caller imported first.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
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


_RESOLVER: list[Callable[[str], ArchLike]] = []
ARCH_PROVIDER = "rocke.arch"


def set_arch_resolver(resolver: Callable[[str], ArchLike]) -> None:
    """Install the function that turns an arch name into an ArchLike (rocke.arch calls this)."""
    _RESOLVER[:] = [resolver]


def resolve_arch_like(arch: object, what: str) -> ArchLike | None:
    """None stays None; a name resolves (UnknownArchError if unknown); an ArchLike passes; anything
    else is a TypeError naming `what` (the API that was called)."""
    if arch is None:
        return None
    if isinstance(arch, str):
        if not _RESOLVER:
            importlib.import_module(ARCH_PROVIDER)
        return _RESOLVER[0](arch)
    if isinstance(arch, ArchLike):
        return arch
    raise TypeError(f"{what}: arch must be an arch name or an ArchTarget, got {type(arch).__name__}")
