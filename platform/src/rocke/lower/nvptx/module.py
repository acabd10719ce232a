"""The nvptx module's kernel attributes and metadata.

The workgroup size bound is `!nvvm.annotations` maxntidx: LLVM 20's NVPTX backend ignores the
"nvvm.maxntid" function attribute that LLVM 22 reads, and both read the annotation (ptxas then sees
.maxntid). waves_per_eu is an AMD occupancy hint with no NVIDIA counterpart written here."""

from __future__ import annotations

from rocke.arch import ArchTarget
from rocke.ir.core import KernelDef


def kernel_attributes(kernel: KernelDef, arch: ArchTarget) -> list[str]:
    """String attributes of the kernel, sorted by name."""
    return [f'"target-cpu"="{arch.llvm_cpu}"']


def module_metadata(kernel: KernelDef, arch: ArchTarget) -> list[str]:
    """The named metadata closing the module."""
    max_wg = int(kernel.attrs["max_workgroup_size"])
    return ["!nvvm.annotations = !{!0}", f'!0 = !{{ptr @{kernel.name}, !"maxntidx", i32 {max_wg}}}']
