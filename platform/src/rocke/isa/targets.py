"""Which backend compiles an arch: its vendor, LLVM target triple and ``-mcpu`` name, read from the
arch's target row (rocke/arch/data/targets.toml via archs.toml's `target` fact)."""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import ARCH_NAMES, get_arch


@dataclass(frozen=True)
class CodegenTarget:
    """How ``arch`` is compiled: ``vendor`` (``amd`` or ``nvidia``), LLVM ``triple`` and ``cpu``."""

    arch: str
    vendor: str
    triple: str
    cpu: str

    @property
    def toolchain(self) -> str:
        """The arch's target's toolchain (targets.toml): "amdgpu" (object, ld.lld) or "ptxas" (PTX,
        cubin), the one fact that picks the compile path."""
        return get_arch(self.arch).vendor_target.toolchain


def codegen_archs() -> tuple[str, ...]:
    """Every arch the toolchain compiles for: the archs ``rocke.arch`` models."""
    return tuple(ARCH_NAMES)


def codegen_target(arch: str) -> CodegenTarget:
    """The target of ``arch``: its vendor, the LLVM triple and the ``-mcpu`` name its backend knows.
    An unknown arch raises ``ValueError`` listing the known ones."""
    if arch not in ARCH_NAMES:
        raise ValueError(f"unknown arch '{arch}'; known archs: {', '.join(codegen_archs())}")
    row = get_arch(arch)
    target = row.vendor_target
    return CodegenTarget(arch=arch, vendor=target.vendor, triple=target.triple, cpu=row.llvm_cpu)


def shared_bytes_limit(arch: str) -> int:
    """The most shared memory one thread block may use on the NVIDIA ``arch`` (static plus dynamic)."""
    if arch not in ARCH_NAMES or get_arch(arch).vendor_target.vendor != "nvidia":
        known = ", ".join(name for name in ARCH_NAMES if get_arch(name).vendor_target.vendor == "nvidia")
        raise ValueError(f"unknown NVIDIA arch '{arch}'; known NVIDIA archs: {known}")
    return get_arch(arch).lds_bytes
