"""The vendor-neutral runtime interface: what rocKE needs from a GPU driver, and nothing more.

A Backend loads a code object, looks up a kernel in it, launches the kernel with a grid, a block,
dynamic shared memory and a packed parameter buffer (rocke.runtime.packing), synchronizes,
allocates / copies / fills / frees device memory (addresses are ints) and times work with device
events. `open_backend(arch)` opens the backend of the arch's vendor on the first GPU of that arch.

Backends: `cuda` (NVIDIA, through cuda-bindings' driver API), `hip` (AMD: the interface only; it
has never launched on AMD hardware) and `loopback` (host memory and the simulator: the CPU
stand-in that tests the launch path without a GPU).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

import numpy as np


def vendor_of(arch: str) -> str:
    """The vendor of an arch (amd or nvidia), read from its target row (rocke/arch/data/targets.toml);
    rocke.arch.UnknownArchError (a ValueError) lists the known archs otherwise."""
    from rocke.arch import get_arch

    return get_arch(arch).vendor_target.vendor


class Backend(ABC):
    """One device of one vendor. Device memory is addressed by ints; events are opaque."""

    vendor: str = ""
    code_object_kind: str = ""  # what load_module takes: "cubin", "hsaco", "rir"

    @property
    @abstractmethod
    def arch(self) -> str:
        """The device's arch name (e.g. sm_90, gfx942)."""

    @property
    @abstractmethod
    def device_name(self) -> str:
        """The device's marketing name, as the driver reports it."""

    @abstractmethod
    def load_module(self, code: bytes) -> Any:
        """Load a code object; returns a module handle."""

    @abstractmethod
    def get_kernel(self, module: Any, name: str) -> Any:
        """The kernel `name` of a loaded module."""

    @abstractmethod
    def launch(self, kernel: Any, grid: Sequence[int], block: Sequence[int], params: bytes, *,
               shared_bytes: int = 0) -> None:
        """Enqueue one launch: grid in workgroups, block in threads (3 ints each), the packed
        parameter buffer, and bytes of dynamic shared memory per workgroup."""

    @abstractmethod
    def synchronize(self) -> None:
        """Wait for all enqueued work; a failed launch raises here at the latest."""

    @abstractmethod
    def alloc(self, nbytes: int) -> int:
        """nbytes (> 0) of device memory; returns its address."""

    @abstractmethod
    def free(self, address: int) -> None: ...

    @abstractmethod
    def copy_to_device(self, address: int, host: np.ndarray) -> None:
        """Copy a C-contiguous host array's bytes to device memory at address."""

    @abstractmethod
    def copy_to_host(self, host: np.ndarray, address: int) -> None:
        """Fill a C-contiguous, writable host array with the device bytes at address."""

    @abstractmethod
    def fill(self, address: int, nbytes: int, byte: int) -> None:
        """Set nbytes of device memory at address to `byte` (enqueued like a launch)."""

    @abstractmethod
    def record_event(self) -> Any:
        """An event recorded now, in launch order."""

    @abstractmethod
    def elapsed_ms(self, start: Any, end: Any) -> float:
        """Milliseconds between two recorded events (waits for the end event; consumes both)."""

    @abstractmethod
    def close(self) -> None:
        """Release what the backend holds (modules, memory, context)."""


def open_backend(arch: str, *, ordinal: int = 0) -> Backend:
    """The backend of `arch`'s vendor on GPU `ordinal`, which must be of that arch.
    RuntimeUnavailableError (one line) when the bindings, the driver or such a GPU is missing;
    NotWrittenError for the HIP backend."""
    vendor = vendor_of(arch)
    backend: Backend
    if vendor == "nvidia":
        from .cuda import CudaBackend

        backend = CudaBackend(ordinal)
    else:
        from .hip import HipBackend

        backend = HipBackend(ordinal)
    if backend.arch != arch:
        from .errors import RuntimeUnavailableError

        name, found = backend.device_name, backend.arch
        backend.close()
        raise RuntimeUnavailableError(f"GPU {ordinal} is {name} ({found}), not {arch}")
    return backend
