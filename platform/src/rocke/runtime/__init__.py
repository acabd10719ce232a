"""rocke.runtime: load code objects and launch kernels and plans on a real GPU (platform/docs/runtime.md).

* Backend (backend.py): the vendor-neutral interface; `open_backend(arch)` opens the arch's vendor
  backend: CudaBackend (cuda.py, cuda-bindings, imported lazily) or HipBackend (hip.py: the
  interface only, never launched on AMD hardware); LoopbackBackend (loopback.py) runs on the
  simulator in host memory, the CPU stand-in for tests.
* Packing (packing.py): a launch contract's or kernel's arguments as the kernel parameter buffer;
  checked against PTX `.entry` parameters (ptx.py) and `.amdhsa` kernarg metadata (hip.py).
* Code objects (compile.py): `compile_code_object(kernel, arch, flavor)`, the toolchain seam, and
  `code_object`, through the disk cache (cache.py, `rocke cache`).
* Devices (device.py): SimDevice and RuntimeDevice, the one shape plan execution runs on.
"""

from .backend import Backend, open_backend, vendor_of
from .cache import CacheEntry, CacheKey, CodeObjectCache, default_cache_dir
from .compile import code_object, compile_code_object, kernel_digest, toolchain_version
from .device import Device, DeviceBuffer, RuntimeDevice, SimDevice
from .errors import CacheError, DeviceError, NotWrittenError, PackError, RuntimeUnavailableError
from .loopback import LoopbackBackend, loopback_code_object
from .packing import ParamLayout, ParamSlot, contract_layout, kernel_layout, param_layout

__all__ = [
    "Backend",
    "CacheEntry",
    "CacheError",
    "CacheKey",
    "CodeObjectCache",
    "Device",
    "DeviceBuffer",
    "DeviceError",
    "LoopbackBackend",
    "NotWrittenError",
    "PackError",
    "ParamLayout",
    "ParamSlot",
    "RuntimeDevice",
    "RuntimeUnavailableError",
    "SimDevice",
    "code_object",
    "compile_code_object",
    "contract_layout",
    "default_cache_dir",
    "kernel_digest",
    "kernel_layout",
    "loopback_code_object",
    "open_backend",
    "param_layout",
    "toolchain_version",
    "vendor_of",
]
