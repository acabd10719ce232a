"""The CUDA backend: NVIDIA's driver API through cuda-bindings (`pip install 'rocke[cuda]'`).

The bindings are imported when a backend is opened, never before: rocke installs and runs without
them. Every driver call returns (CUresult, values...); a result other than CUDA_SUCCESS raises
DeviceError naming the call and the error. The backend retains the device's primary context (as
the CUDA runtime and PyTorch do, so their memory and ours live in one context), launches on the
default stream and passes the packed parameter buffer as cuLaunchKernel's `extra`
(CU_LAUNCH_PARAM_BUFFER_POINTER / _SIZE): the layout of rocke.runtime.packing, checked against
PTX `.entry` parameter lists by the tests.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from typing import Any

import numpy as np

from .backend import Backend
from .errors import DeviceError, RuntimeUnavailableError

INSTALL_HINT = "pip install 'rocke[cuda]'"
STATIC_SHARED_LIMIT = 48 * 1024  # dynamic shared memory beyond this needs the kernel's opt-in attribute
# CU_LAUNCH_PARAM_* markers of cuLaunchKernel's `extra` array (cuda.h)
PARAM_BUFFER_POINTER, PARAM_BUFFER_SIZE, PARAM_END = 1, 2, 0


def load_driver() -> Any:
    """cuda.bindings.driver; RuntimeUnavailableError (one line) when cuda-bindings is not installed."""
    try:
        from cuda.bindings import driver
    except ImportError:
        raise RuntimeUnavailableError(f"no CUDA backend: cuda-bindings is not installed ({INSTALL_HINT})") from None
    return driver


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


class CudaBackend(Backend):
    """GPU `ordinal` through the CUDA driver API. `driver` replaces cuda.bindings.driver (tests)."""

    vendor = "nvidia"
    code_object_kind = "cubin"

    def __init__(self, ordinal: int = 0, *, driver: Any = None) -> None:
        self._cu = load_driver() if driver is None else driver
        self._context: Any = None
        self._modules: list[Any] = []
        self._shared_optin: dict[int, int] = {}
        try:
            (result,) = self._cu.cuInit(0)
        except Exception as exc:  # the bindings raise when the driver library itself is missing
            raise RuntimeUnavailableError(f"no NVIDIA driver: {_one_line(exc)}") from None
        if result != self._cu.CUresult.CUDA_SUCCESS:
            raise RuntimeUnavailableError(f"no NVIDIA GPU: cuInit failed with {self._error_name(result)}")
        count = self._call("cuDeviceGetCount")
        if not 0 <= ordinal < count:
            raise RuntimeUnavailableError(f"no NVIDIA GPU {ordinal}: the driver sees {count}")
        self._device = self._call("cuDeviceGet", ordinal)
        attribute = self._cu.CUdevice_attribute
        major = self._call("cuDeviceGetAttribute", attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                           self._device)
        minor = self._call("cuDeviceGetAttribute", attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                           self._device)
        self._arch = f"sm_{major}{minor}"
        raw = self._call("cuDeviceGetName", 256, self._device)
        self._name = bytes(raw).split(b"\0", 1)[0].decode(errors="replace")
        self._context = self._call("cuDevicePrimaryCtxRetain", self._device)
        self._call("cuCtxSetCurrent", self._context)
        self._stream = self._cu.CUstream(0)

    # -- driver calls ----------------------------------------------------------------------------

    def _error_name(self, result: Any) -> str:
        try:
            status, name = self._cu.cuGetErrorName(result)
            if status == self._cu.CUresult.CUDA_SUCCESS and name:
                return bytes(name).decode(errors="replace")
        except Exception:  # a result the bindings cannot name
            pass
        return str(result)

    def _call(self, name: str, *args: Any) -> Any:
        result, *values = getattr(self._cu, name)(*args)
        if result != self._cu.CUresult.CUDA_SUCCESS:
            raise DeviceError(f"{name} failed: {self._error_name(result)}")
        return values[0] if len(values) == 1 else tuple(values) or None

    def _ptr(self, address: int) -> Any:
        return self._cu.CUdeviceptr(address)

    # -- Backend -----------------------------------------------------------------------------------

    @property
    def arch(self) -> str:
        return self._arch

    @property
    def device_name(self) -> str:
        return self._name

    def load_module(self, code: bytes) -> Any:
        module = self._call("cuModuleLoadData", code)
        self._modules.append(module)
        return module

    def get_kernel(self, module: Any, name: str) -> Any:
        return self._call("cuModuleGetFunction", module, name.encode())

    def launch(self, kernel: Any, grid: Sequence[int], block: Sequence[int], params: bytes, *,
               shared_bytes: int = 0) -> None:
        if shared_bytes > self._shared_optin.get(id(kernel), STATIC_SHARED_LIMIT):
            self._call("cuFuncSetAttribute", kernel,
                       self._cu.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared_bytes)
            self._shared_optin[id(kernel)] = shared_bytes
        buffer = ctypes.create_string_buffer(bytes(params), max(1, len(params)))
        size = ctypes.c_size_t(len(params))
        extra = (ctypes.c_void_p * 5)(PARAM_BUFFER_POINTER, ctypes.addressof(buffer), PARAM_BUFFER_SIZE,
                                      ctypes.addressof(size), PARAM_END)
        gx, gy, gz = grid
        bx, by, bz = block
        self._call("cuLaunchKernel", kernel, gx, gy, gz, bx, by, bz, shared_bytes, self._stream, None,
                   ctypes.addressof(extra))

    def synchronize(self) -> None:
        self._call("cuCtxSynchronize")

    def alloc(self, nbytes: int) -> int:
        return int(self._call("cuMemAlloc", nbytes))

    def free(self, address: int) -> None:
        self._call("cuMemFree", self._ptr(address))

    def copy_to_device(self, address: int, host: np.ndarray) -> None:
        self._call("cuMemcpyHtoD", self._ptr(address), host.ctypes.data, host.nbytes)

    def copy_to_host(self, host: np.ndarray, address: int) -> None:
        self._call("cuMemcpyDtoH", host.ctypes.data, self._ptr(address), host.nbytes)

    def fill(self, address: int, nbytes: int, byte: int) -> None:
        self._call("cuMemsetD8", self._ptr(address), byte, nbytes)

    def record_event(self) -> Any:
        event = self._call("cuEventCreate", self._cu.CUevent_flags.CU_EVENT_DEFAULT)
        self._call("cuEventRecord", event, self._stream)
        return event

    def elapsed_ms(self, start: Any, end: Any) -> float:
        """Consumes both events."""
        self._call("cuEventSynchronize", end)
        milliseconds = float(self._call("cuEventElapsedTime", start, end))
        self._call("cuEventDestroy", start)
        self._call("cuEventDestroy", end)
        return milliseconds

    def close(self) -> None:
        while self._modules:
            self._call("cuModuleUnload", self._modules.pop())
        if self._context is not None:
            self._context = None
            self._call("cuDevicePrimaryCtxRelease", self._device)
