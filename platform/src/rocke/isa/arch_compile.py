"""Compile ``.ll`` for an arch whatever its vendor: AMDGPU assembly, or PTX and a ptxas cubin."""

from __future__ import annotations

from dataclasses import dataclass

from rocke.isa.compile import DEFAULT_TIMEOUT, compile_ll
from rocke.isa.ptxas import NvidiaResources, run_ptxas
from rocke.isa.resources import Resources, all_resources
from rocke.isa.targets import codegen_target


@dataclass(frozen=True)
class ArchCompile:
    """One module compiled for ``arch``.

    ``assembly`` is the AMDGPU assembly or the PTX text; ``binary`` the cubin on NVIDIA and None
    on AMDGPU (whose HSACO is ``compile_ll(..., output="obj")`` linked by ``link_hsaco``);
    ``resources`` one record per kernel (``Resources`` or ``NvidiaResources``); ``log`` ptxas's
    report on NVIDIA, empty on AMDGPU.
    """

    arch: str
    vendor: str
    assembly: str
    binary: bytes | None
    resources: tuple[Resources, ...] | tuple[NvidiaResources, ...]
    log: str = ""


def compile_for_arch(ll_text: str, arch: str, flavor: str, *, timeout: float | None = DEFAULT_TIMEOUT) -> ArchCompile:
    """Compile ``ll_text`` for ``arch``; the arch's vendor decides the path.

    AMDGPU: the backend's assembly and the resources read from it. NVIDIA: the NVPTX backend's
    PTX, then ``ptxas`` for the cubin and its resources. Raises the errors of ``compile_ll``, and
    on NVIDIA those of ``run_ptxas`` (``PtxasNotFoundError``, ``PtxasError``).
    """
    target = codegen_target(arch)
    assembly = compile_ll(ll_text, arch, flavor, timeout=timeout)
    assert isinstance(assembly, str)
    if target.vendor == "amd":
        return ArchCompile(arch, target.vendor, assembly, None, all_resources(assembly, arch))
    result = run_ptxas(assembly, target.cpu, arch=arch, timeout=timeout)
    return ArchCompile(arch, target.vendor, assembly, result.cubin, result.resources, result.log)
