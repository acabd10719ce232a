"""Which backend compiles an arch: its vendor, LLVM target triple and ``-mcpu`` name."""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import ARCH_NAMES, TARGET, get_arch
from rocke.isa.toolchains import NvptxArch, toolchain_table

VENDORS = ("amd", "nvidia")


@dataclass(frozen=True)
class CodegenTarget:
    """How ``arch`` is compiled: ``vendor`` (``amd`` or ``nvidia``), LLVM ``triple`` and ``cpu``."""

    arch: str
    vendor: str
    triple: str
    cpu: str


def _nvptx_arch(arch: str) -> NvptxArch | None:
    for row in toolchain_table().nvptx.archs:
        if row.name == arch:
            return row
    return None


def codegen_archs() -> tuple[str, ...]:
    """Every arch the toolchain compiles for: the AMDGPU archs of ``rocke.arch``, then the NVIDIA ones."""
    return tuple(ARCH_NAMES) + tuple(row.name for row in toolchain_table().nvptx.archs)


def codegen_target(arch: str) -> CodegenTarget:
    """The target of ``arch``: its vendor, the LLVM triple and the ``-mcpu`` name its backend knows.

    The AMDGPU archs are those ``rocke.arch`` models (triple from the flavor table, cpu from the
    arch's ``llvm_cpu``); the NVIDIA archs are the ``[[nvptx.arch]]`` rows of
    ``data/toolchains.toml`` (triple ``nvptx64-nvidia-cuda``). An unknown arch raises
    ``ValueError`` listing the known ones.
    """
    if arch in ARCH_NAMES:
        return CodegenTarget(arch=arch, vendor="amd", triple=TARGET.triple, cpu=get_arch(arch).llvm_cpu)
    row = _nvptx_arch(arch)
    if row is not None:
        return CodegenTarget(arch=arch, vendor="nvidia", triple=toolchain_table().nvptx.triple, cpu=row.cpu)
    raise ValueError(f"unknown arch '{arch}'; known archs: {', '.join(codegen_archs())}")


def shared_bytes_limit(arch: str) -> int:
    """The most shared memory one thread block may use on the NVIDIA ``arch`` (static plus dynamic)."""
    row = _nvptx_arch(arch)
    if row is None:
        known = ", ".join(r.name for r in toolchain_table().nvptx.archs)
        raise ValueError(f"unknown NVIDIA arch '{arch}'; known NVIDIA archs: {known}")
    return row.shared_bytes_per_block
