"""Devices: where a host's launches run, behind one shape for the simulator and for a GPU.

A Device binds the caller's numpy arrays (`buffer`), makes a workspace whose bytes are not zero
(`workspace`, as a fresh device allocation holds anything), views a slice of it (`view`),
zero-fills a buffer (`zero`), launches a kernel with rocke.sim.run's arguments (`launch`) and,
at `finish`, leaves every result in the caller's arrays (`release` instead frees what a failed
run holds). The library's plan executor (dispatch `execute`) is written once against this shape.

* SimDevice: today's numpy path. Buffers are the caller's arrays themselves, launches run on
  rocke.sim (so results land in place), finish has nothing to do.
* RuntimeDevice: a Backend (rocke.runtime.backend). A buffer is device memory holding a copy of
  the caller's array; a launch gets its code object (compile seam and cache), packs the
  arguments with the kernel's parameter layout and is timed with device events; finish
  synchronizes, copies every bound buffer back into its (writable) array and frees all memory.

`RuntimeDevice.run` has rocke.sim.run's signature (bind, launch, finish in one call), so a
family's numeric check runs on a GPU unchanged (rocke.families.launcher.launches_on).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from rocke.ir import KernelDef
from rocke.sim import run as sim_run

from .backend import Backend
from .cache import CodeObjectCache
from .compile import code_object, dynamic_shared_bytes, kernel_digest
from .errors import RuntimeUnavailableError
from .loopback import loopback_code_object
from .packing import kernel_layout

WORKSPACE_FILL = 0xFF  # a fresh workspace's bytes (NaN in f32): only a zero-fill makes it zero

CodeObjectFn = Callable[[KernelDef, str, str], bytes]


class Device(Protocol):
    def buffer(self, array: np.ndarray) -> Any: ...

    def workspace(self, nbytes: int) -> Any: ...

    def view(self, workspace: Any, offset: int, nbytes: int, dtype: np.dtype) -> Any: ...

    def zero(self, buffer: Any) -> None: ...

    def launch(self, kernel: KernelDef, *, arch: str, grid: Sequence[int], block: Sequence[int],
               args: Sequence[Any]) -> None: ...

    def finish(self) -> None: ...

    def release(self) -> None: ...


class SimDevice:
    """The simulator: buffers are the caller's arrays, launches are rocke.sim.run."""

    def __init__(self, *, check_races: bool = True) -> None:
        self.check_races = check_races

    def buffer(self, array: np.ndarray) -> np.ndarray:
        return array

    def workspace(self, nbytes: int) -> np.ndarray:
        return np.full(nbytes, WORKSPACE_FILL, np.uint8)

    def view(self, workspace: np.ndarray, offset: int, nbytes: int, dtype: np.dtype) -> np.ndarray:
        return workspace[offset:offset + nbytes].view(dtype)

    def zero(self, buffer: np.ndarray) -> None:
        buffer[...] = 0

    def launch(self, kernel: KernelDef, *, arch: str, grid: Sequence[int], block: Sequence[int],
               args: Sequence[Any]) -> None:
        sim_run(kernel, arch=arch, grid=grid, block=block, args=list(args), check_races=self.check_races)

    def finish(self) -> None:
        pass

    def release(self) -> None:
        pass


@dataclass(frozen=True)
class DeviceBuffer:
    address: int
    nbytes: int


@dataclass
class LaunchRecord:
    kernel: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    events: tuple[Any, Any]
    milliseconds: float | None = None  # known after finish


@dataclass
class _Bound:
    buffer: DeviceBuffer
    host: np.ndarray


@dataclass
class RuntimeDevice:
    """Launches on `backend`. flavor: the LLVM flavor code objects are compiled for (default: the
    running LLVM's); code_object: KernelDef, arch, flavor -> bytes (default: the backend's kind,
    rocke.runtime.compile.code_object through `cache` (the default cache directory when None), or
    rocke.ir/1 text for the loopback backend)."""

    backend: Backend
    flavor: str = ""
    cache: CodeObjectCache | None = None
    code_object: CodeObjectFn | None = None
    launches: list[LaunchRecord] = field(default_factory=list)
    _allocations: list[int] = field(default_factory=list)
    _bound: list[_Bound] = field(default_factory=list)
    _kernels: dict[tuple[str, str], Any] = field(default_factory=dict)

    def buffer(self, array: np.ndarray) -> DeviceBuffer:
        if not isinstance(array, np.ndarray):
            raise TypeError(f"a device buffer binds a numpy array, got {type(array).__name__}")
        buffer = self._alloc(array.nbytes)
        self.backend.copy_to_device(buffer.address, np.ascontiguousarray(array))
        self._bound.append(_Bound(buffer, array))
        return buffer

    def workspace(self, nbytes: int) -> DeviceBuffer:
        buffer = self._alloc(nbytes)
        self.backend.fill(buffer.address, buffer.nbytes, WORKSPACE_FILL)
        return buffer

    def view(self, workspace: DeviceBuffer, offset: int, nbytes: int, dtype: np.dtype) -> DeviceBuffer:
        if offset < 0 or offset + nbytes > workspace.nbytes:
            raise ValueError(f"a view of {nbytes} bytes at offset {offset} exceeds the workspace of "
                             f"{workspace.nbytes} bytes")
        return DeviceBuffer(workspace.address + offset, nbytes)

    def zero(self, buffer: DeviceBuffer) -> None:
        self.backend.fill(buffer.address, buffer.nbytes, 0)

    def launch(self, kernel: KernelDef, *, arch: str, grid: Sequence[int], block: Sequence[int],
               args: Sequence[Any]) -> None:
        if arch != self.backend.arch:
            raise RuntimeUnavailableError(f"kernel {kernel.name} is built for {arch}; the device is "
                                          f"{self.backend.device_name} ({self.backend.arch})")
        values = [arg.address if isinstance(arg, DeviceBuffer) else arg for arg in args]
        params = kernel_layout(kernel).pack(values)
        function = self._kernel(kernel, arch)
        grid3, block3 = _dims3(grid), _dims3(block)
        shared = dynamic_shared_bytes(kernel, arch)  # the pool above a target's static limit
        start = self.backend.record_event()
        self.backend.launch(function, grid3, block3, params, shared_bytes=shared)
        end = self.backend.record_event()
        self.launches.append(LaunchRecord(kernel.name, grid3, block3, (start, end)))

    def finish(self) -> None:
        try:
            self.backend.synchronize()
            for record in self.launches:
                if record.milliseconds is None:
                    record.milliseconds = self.backend.elapsed_ms(*record.events)
            for bound in self._bound:
                if bound.host.flags.writeable:
                    out = np.empty_like(bound.host, order="C")
                    self.backend.copy_to_host(out, bound.buffer.address)
                    np.copyto(bound.host, out)
        finally:
            self.release()

    def release(self) -> None:
        """Free every allocation (finish does; call it when a launch failed)."""
        while self._allocations:
            self.backend.free(self._allocations.pop())
        self._bound.clear()

    def run(self, kernel: KernelDef, *, arch: str, grid: Sequence[int] | int, block: Sequence[int] | int,
            args: Sequence[Any], **_simulator_options: Any) -> None:
        """rocke.sim.run's signature on the device: numpy arrays are bound, the kernel launched,
        results copied back into the arrays. Options of the simulator's model are ignored."""
        try:
            bound = [self.buffer(arg) if isinstance(arg, np.ndarray) else arg for arg in args]
            self.launch(kernel, arch=arch, grid=_dims3(grid), block=_dims3(block), args=bound)
        except BaseException:
            self.release()
            raise
        self.finish()

    @property
    def milliseconds(self) -> float:
        """Device time of every finished launch."""
        return sum(record.milliseconds or 0.0 for record in self.launches)

    def _alloc(self, nbytes: int) -> DeviceBuffer:
        address = self.backend.alloc(max(1, nbytes))
        self._allocations.append(address)
        return DeviceBuffer(address, nbytes)

    def _kernel(self, kernel: KernelDef, arch: str) -> Any:
        key = (kernel_digest(kernel), arch)
        if key not in self._kernels:
            if self.code_object is not None:
                code = self.code_object(kernel, arch, self.flavor)
            elif self.backend.code_object_kind == "rir":
                code = loopback_code_object(kernel, arch, self.flavor)
            else:
                code = code_object(kernel, arch, self.flavor or _running_flavor(), self.cache)
            module = self.backend.load_module(code)
            self._kernels[key] = self.backend.get_kernel(module, kernel.name)
        return self._kernels[key]


def _running_flavor() -> str:
    from rocke.isa import running_flavor

    flavor = running_flavor()
    if flavor is None:
        raise RuntimeUnavailableError("the running llvmlite bundles no LLVM flavor rocke knows; name a flavor")
    return flavor


def _dims3(dims: Sequence[int] | int) -> tuple[int, int, int]:
    values = (dims,) if isinstance(dims, int) else tuple(dims)
    if not 1 <= len(values) <= 3:
        raise ValueError(f"grid and block take 1 to 3 dimensions, got {len(values)}")
    return (*values, *(1,) * (3 - len(values)))  # type: ignore[return-value]
