"""The loopback backend: a Backend whose device memory is host memory and whose kernels run on the
simulator. It has the GPU backends' contract (int addresses, packed parameter buffers, events), so
the launch path above it (parameter packing, device buffers, workspace slices, zero-fills, copies
back) runs in CI exactly as it runs on a GPU, and its results can be held to the simulator's own.

Its code objects are rocke.ir/1 text (`loopback_code_object`). A launch unpacks the parameter
buffer with the kernel's layout, turns each pointer into a view of the allocation it points into
(from that address to the allocation's end), and runs rocke.sim.run on the backend's arch.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from rocke.ir import KernelDef, PtrType, parse_kernel, print_kernel
from rocke.sim import run
from rocke.sim.dtypes import numpy_dtype

from .backend import Backend
from .errors import DeviceError
from .packing import kernel_layout

BASE_ADDRESS = 0x7F00_0000_0000
ALIGN = 256


def loopback_code_object(kernel: KernelDef, arch: str, flavor: str) -> bytes:
    """The loopback backend's code object of a kernel: its rocke.ir/1 text."""
    return print_kernel(kernel).encode()


class LoopbackBackend(Backend):
    """A device of `arch` in host memory; launches run on the simulator (check_races as rocke.sim)."""

    vendor = "loopback"
    code_object_kind = "rir"

    def __init__(self, arch: str, *, check_races: bool = True) -> None:
        self._arch = arch
        self._check_races = check_races
        self._bases: list[int] = []  # sorted allocation addresses
        self._memory: dict[int, np.ndarray] = {}  # address -> uint8 array
        self._next = BASE_ADDRESS
        self.launches: list[tuple[str, tuple[int, ...], tuple[int, ...], bytes]] = []  # (kernel, grid, block, params)

    @property
    def arch(self) -> str:
        return self._arch

    @property
    def device_name(self) -> str:
        return f"loopback {self._arch} (simulator)"

    def _find(self, address: int) -> tuple[np.ndarray, int]:
        """(allocation, offset) of an address inside a live allocation; DeviceError otherwise."""
        i = bisect.bisect_right(self._bases, address) - 1
        if i >= 0:
            memory = self._memory[self._bases[i]]
            offset = address - self._bases[i]
            if offset < memory.size:
                return memory, offset
        raise DeviceError(f"address {address:#x} is in no allocation")

    def _bytes(self, address: int, nbytes: int) -> np.ndarray:
        memory, offset = self._find(address)
        if offset + nbytes > memory.size:
            raise DeviceError(f"{nbytes} bytes at {address:#x} run past the end of their allocation")
        return memory[offset:offset + nbytes]

    def load_module(self, code: bytes) -> Any:
        return parse_kernel(code.decode())

    def get_kernel(self, module: Any, name: str) -> Any:
        if module.name != name:
            raise DeviceError(f"the module holds kernel {module.name}, not {name}")
        return module

    def launch(self, kernel: Any, grid: Sequence[int], block: Sequence[int], params: bytes, *,
               shared_bytes: int = 0) -> None:
        self.launches.append((kernel.name, tuple(grid), tuple(block), bytes(params)))
        args: list[Any] = []
        for param, value in zip(kernel.params, kernel_layout(kernel).unpack(params), strict=True):
            if isinstance(param.type, PtrType):
                memory, offset = self._find(int(value))
                dtype = numpy_dtype(param.type.pointee)
                usable = (memory.size - offset) // dtype.itemsize * dtype.itemsize
                args.append(memory[offset:offset + usable].view(dtype))
            else:
                args.append(value)
        run(kernel, arch=self._arch, grid=tuple(grid), block=tuple(block), args=args, check_races=self._check_races)

    def synchronize(self) -> None:
        pass

    def alloc(self, nbytes: int) -> int:
        if isinstance(nbytes, bool) or not isinstance(nbytes, int) or nbytes < 1:
            raise DeviceError(f"alloc needs a positive number of bytes, got {nbytes!r}")
        address = self._next
        self._next += -(-nbytes // ALIGN) * ALIGN + ALIGN  # a gap: a pointer past the end finds nothing
        self._bases.append(address)
        self._memory[address] = np.zeros(nbytes, np.uint8)
        return address

    def free(self, address: int) -> None:
        if address not in self._memory:
            raise DeviceError(f"free of {address:#x}, which is not an allocation")
        del self._memory[address]
        self._bases.remove(address)

    def copy_to_device(self, address: int, host: np.ndarray) -> None:
        self._bytes(address, host.nbytes)[...] = np.frombuffer(host.tobytes(), np.uint8)

    def copy_to_host(self, host: np.ndarray, address: int) -> None:
        host.reshape(-1).view(np.uint8)[...] = self._bytes(address, host.nbytes)

    def fill(self, address: int, nbytes: int, byte: int) -> None:
        self._bytes(address, nbytes)[...] = byte

    def record_event(self) -> Any:
        return time.perf_counter()

    def elapsed_ms(self, start: Any, end: Any) -> float:
        return (end - start) * 1000.0

    def close(self) -> None:
        self._memory.clear()
        self._bases.clear()

    @property
    def allocations(self) -> int:
        """Live allocations (a device that frees what it allocated leaves none)."""
        return len(self._memory)
