"""Code objects for the runtime: the one place a kernel becomes the bytes a backend loads.

`compile_code_object(kernel, arch, flavor)` is the seam to the toolchains of rocke.isa: an AMD arch
gets an HSACO (lower, LLVM object, ld.lld); an arch whose toolchain rocke.isa does not offer yet
raises NotWrittenError, and is plugged in here when it does. `code_object` puts the code-object
cache in front of it, keyed by the kernel's IR digest, the arch, the flavor and the toolchain
version.
"""

from __future__ import annotations

import hashlib

import rocke
from rocke.ir import KernelDef, print_kernel

from .backend import vendor_of
from .cache import CacheKey, CodeObjectCache
from .errors import NotWrittenError


def _not_written(arch: str) -> NotWrittenError:
    return NotWrittenError(f"no code-object toolchain for {arch} in rocke yet (rocke.isa compiles for AMD archs)")


def toolchain_version(arch: str, flavor: str) -> str:
    """What a code object of arch depends on besides its source: rocke's version (the lowering)
    and the LLVM that compiles it (and, per vendor, the linker or assembler)."""
    from rocke.isa import llvm_version, llvmlite_version

    if vendor_of(arch) != "amd":
        raise _not_written(arch)
    llvm = ".".join(str(part) for part in llvm_version())
    return f"rocke {rocke.__version__}; {flavor}; llvmlite {llvmlite_version()} (LLVM {llvm}); ld.lld"


def compile_code_object(kernel: KernelDef, arch: str, flavor: str) -> bytes:
    """The code object a backend of arch loads: an HSACO for AMD archs; NotWrittenError for an
    arch without a toolchain. Toolchain errors (rocke.isa.ToolchainError) pass through."""
    if vendor_of(arch) != "amd":
        raise _not_written(arch)
    from rocke.engine import lower
    from rocke.isa import compile_ll, link_hsaco

    ll = lower(kernel, arch=arch, flavor=flavor)
    obj = compile_ll(ll, arch, flavor, output="obj")
    assert isinstance(obj, bytes)
    return link_hsaco(obj)


def kernel_digest(kernel: KernelDef) -> str:
    """sha256 of the kernel's rocke.ir/1 text: what its spec and the builder made, exactly."""
    return hashlib.sha256(print_kernel(kernel).encode()).hexdigest()


def code_object(kernel: KernelDef, arch: str, flavor: str, cache: CodeObjectCache | None = None) -> bytes:
    """compile_code_object through the cache (the default cache directory when none is given)."""
    cache = cache if cache is not None else CodeObjectCache()
    key = CacheKey(kernel.name, kernel_digest(kernel), arch, flavor, toolchain_version(arch, flavor))
    return cache.get_or_build(key, lambda: compile_code_object(kernel, arch, flavor))
