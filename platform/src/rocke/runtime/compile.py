"""Code objects for the runtime: the one place a kernel becomes the bytes a backend loads.

`compile_code_object(kernel, arch, flavor)` is the seam to the toolchains of rocke.isa: an AMD arch
gets an HSACO (lower, LLVM object, ld.lld), an NVIDIA arch a cubin (lower, LLVM's PTX, ptxas).
`code_object` puts the code-object cache in front of it, keyed by the kernel's IR digest, the arch,
the flavor and the toolchain version.
"""

from __future__ import annotations

import hashlib

import rocke
from rocke.ir import KernelDef, print_kernel

from .cache import CacheKey, CodeObjectCache


def _ptxas_version() -> str:
    """ptxas's own version line (`ptxas --version`), which decides the cubin as much as LLVM does."""
    import subprocess

    from rocke.isa import find_ptxas

    tool = find_ptxas()
    if tool is None:
        return "no ptxas"
    out = subprocess.run([tool, "--version"], capture_output=True, text=True, check=False).stdout
    return next((line for line in reversed(out.splitlines()) if line.strip()), "ptxas")


def toolchain_version(arch: str, flavor: str) -> str:
    """What a code object of arch depends on besides its source: rocke's version (the lowering)
    and the LLVM that compiles it (and, per vendor, the linker or assembler)."""
    from rocke.isa import codegen_target, llvm_version, llvmlite_version

    llvm = ".".join(str(part) for part in llvm_version())
    head = f"rocke {rocke.__version__}; {flavor}; llvmlite {llvmlite_version()} (LLVM {llvm})"
    return f"{head}; {_ptxas_version()}" if codegen_target(arch).toolchain == "ptxas" else f"{head}; ld.lld"


def compile_code_object(kernel: KernelDef, arch: str, flavor: str) -> bytes:
    """The code object a backend of arch loads: an HSACO for AMD archs, a cubin for NVIDIA ones.
    Toolchain errors (rocke.isa.ToolchainError) pass through."""
    from rocke.engine import lower
    from rocke.isa import codegen_target, compile_ll, link_hsaco, run_ptxas

    target = codegen_target(arch)
    ll = lower(kernel, arch=arch, flavor=flavor)
    if target.toolchain == "ptxas":
        ptx = compile_ll(ll, arch, flavor, output="asm")
        assert isinstance(ptx, str)
        return run_ptxas(ptx, target.cpu, arch=arch).cubin
    obj = compile_ll(ll, arch, flavor, output="obj")
    assert isinstance(obj, bytes)
    return link_hsaco(obj)


def dynamic_shared_bytes(kernel: KernelDef, arch: str) -> int:
    """The dynamic shared memory a launch of kernel passes: its LDS pool when the pool is above the
    target's static limit (an external array on NVIDIA above 48 KiB), else 0."""
    from rocke.arch import get_arch
    from rocke.lower.lds import is_dynamic, plan_lds

    target = get_arch(arch)
    plan = plan_lds(kernel, target)
    return plan.size if is_dynamic(plan, target.vendor_target) else 0


def kernel_digest(kernel: KernelDef) -> str:
    """sha256 of the kernel's rocke.ir/1 text: what its spec and the builder made, exactly."""
    return hashlib.sha256(print_kernel(kernel).encode()).hexdigest()


def code_object(kernel: KernelDef, arch: str, flavor: str, cache: CodeObjectCache | None = None) -> bytes:
    """compile_code_object through the cache (the default cache directory when none is given)."""
    cache = cache if cache is not None else CodeObjectCache()
    key = CacheKey(kernel.name, kernel_digest(kernel), arch, flavor, toolchain_version(arch, flavor))
    return cache.get_or_build(key, lambda: compile_code_object(kernel, arch, flavor))
