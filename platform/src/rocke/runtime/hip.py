"""The AMD side of the runtime: the HIP backend's shape, and kernarg packing checked against HSACO metadata.

HipBackend is the interface only. rocKE has never launched a kernel on AMD hardware, so every
method names the HIP module-API call it would make and raises NotWrittenError; opening it says so
in one line. What can be checked without a GPU is checked: the explicit kernel arguments of the
parameter buffer (rocke.runtime.packing) against the `.amdhsa` kernarg metadata LLVM writes for
the kernel (`.args`: `.offset`, `.size`, `.value_kind`), see check_kernargs. The hidden arguments
after them (`hidden_block_count_x`, ...) are the HIP runtime's to fill.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rocke.isa.metadata_yaml import parse_yaml

from .backend import Backend
from .errors import NotWrittenError
from .packing import ParamLayout

NEVER_RUN = "the HIP backend is an interface only: rocKE has never launched a kernel on AMD hardware"
EXPLICIT_KINDS = {"global_buffer": "pointer", "by_value": "scalar"}


def _never(call: str) -> NotWrittenError:
    return NotWrittenError(f"{NEVER_RUN} ({call} is not written)")


class HipBackend(Backend):
    """AMD GPU `ordinal` through HIP's module API (hipModuleLoadData, hipModuleLaunchKernel with
    HIP_LAUNCH_PARAM_BUFFER_POINTER): not written; opening it raises NotWrittenError."""

    vendor = "amd"
    code_object_kind = "hsaco"

    def __init__(self, ordinal: int = 0) -> None:
        raise NotWrittenError(NEVER_RUN)

    @property
    def arch(self) -> str:
        raise _never("hipGetDeviceProperties")

    @property
    def device_name(self) -> str:
        raise _never("hipGetDeviceProperties")

    def load_module(self, code: bytes) -> Any:
        raise _never("hipModuleLoadData")

    def get_kernel(self, module: Any, name: str) -> Any:
        raise _never("hipModuleGetFunction")

    def launch(self, kernel: Any, grid: Sequence[int], block: Sequence[int], params: bytes, *,
               shared_bytes: int = 0) -> None:
        raise _never("hipModuleLaunchKernel")

    def synchronize(self) -> None:
        raise _never("hipDeviceSynchronize")

    def alloc(self, nbytes: int) -> int:
        raise _never("hipMalloc")

    def free(self, address: int) -> None:
        raise _never("hipFree")

    def copy_to_device(self, address: int, host: np.ndarray) -> None:
        raise _never("hipMemcpyHtoD")

    def copy_to_host(self, host: np.ndarray, address: int) -> None:
        raise _never("hipMemcpyDtoH")

    def fill(self, address: int, nbytes: int, byte: int) -> None:
        raise _never("hipMemsetD8")

    def record_event(self) -> Any:
        raise _never("hipEventRecord")

    def elapsed_ms(self, start: Any, end: Any) -> float:
        raise _never("hipEventElapsedTime")

    def close(self) -> None:
        raise _never("hipModuleUnload")


@dataclass(frozen=True)
class Kernarg:
    """One explicit kernel argument of the `.amdhsa` metadata."""

    name: str
    offset: int
    size: int
    value_kind: str  # global_buffer | by_value


def _metadata(asm: str) -> Any:
    lines = asm.split("\n")
    starts = [i for i, line in enumerate(lines) if line.strip() == ".amdgpu_metadata"]
    ends = [i for i, line in enumerate(lines) if line.strip() == ".end_amdgpu_metadata"]
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise ValueError("the assembly holds no single .amdgpu_metadata block")
    return parse_yaml("\n".join(lines[starts[0] + 1:ends[0]]))


def amdhsa_kernargs(asm: str, kernel: str) -> tuple[Kernarg, ...]:
    """The explicit arguments of `kernel` in AMDGPU assembly's metadata, in order (hidden ones,
    which follow them, are left out); ValueError when the kernel or its argument list is missing."""
    doc = _metadata(asm)
    kernels = doc.get("amdhsa.kernels") if isinstance(doc, dict) else None
    entry = next((k for k in kernels or [] if isinstance(k, dict) and k.get(".name") == kernel), None)
    if entry is None:
        raise ValueError(f"no kernel {kernel} in the .amdhsa metadata")
    out = []
    for arg in entry.get(".args") or []:
        kind = arg.get(".value_kind", "")
        if kind.startswith("hidden_"):
            continue
        out.append(Kernarg(str(arg.get(".name", "")), int(arg[".offset"]), int(arg[".size"]), kind))
    return tuple(out)


def check_kernargs(layout: ParamLayout, kernargs: tuple[Kernarg, ...], kernel: str) -> None:
    """ValueError naming the first argument whose packing disagrees with the kernarg metadata."""
    if len(kernargs) != len(layout.slots):
        raise ValueError(f"kernel {kernel}: the metadata lists {len(kernargs)} explicit argument(s), the layout "
                         f"packs {len(layout.slots)}")
    for slot, arg in zip(layout.slots, kernargs, strict=True):
        kind = EXPLICIT_KINDS.get(arg.value_kind)
        if (slot.offset, slot.size) != (arg.offset, arg.size) or kind != ("pointer" if slot.kind == "pointer"
                                                                           else "scalar"):
            raise ValueError(f"kernel {kernel}: argument {slot.name} ({slot.type}) is packed as {slot.size} bytes "
                             f"at offset {slot.offset}; the metadata has {arg.name} ({arg.value_kind}, {arg.size} "
                             f"bytes at offset {arg.offset})")
