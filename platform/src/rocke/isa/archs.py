"""Which archs the toolchain compiles for: exactly the ones ``rocke.arch`` models."""

from __future__ import annotations

from rocke.arch import ARCH_NAMES, get_arch


def known_archs() -> tuple[str, ...]:
    return tuple(ARCH_NAMES)


def check_arch(arch: str) -> str:
    """Refuse an arch ``rocke.arch`` does not model (LLVM would silently fall back to a generic CPU)."""
    if arch not in ARCH_NAMES:
        raise ValueError(f"unknown arch '{arch}'; known archs: {', '.join(ARCH_NAMES)}")
    return arch


def llvm_cpu(arch: str) -> str:
    """The ``-mcpu`` name the AMDGPU backend knows ``arch`` by."""
    return get_arch(check_arch(arch)).llvm_cpu
