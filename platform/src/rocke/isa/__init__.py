"""rocke.isa: the real LLVM toolchain (llvmlite's AMDGPU and NVPTX backends, NVIDIA's ptxas).

* :func:`verify_ll` parses and verifies ``.ll`` text in-process.
* :func:`compile_ll` / :func:`compile_many` compile it to assembly or an ELF
  object, always in a spawned child process so an LLVM abort cannot take the
  caller down (it becomes :class:`LLVMAbortError`).
* :func:`resources` reads VGPR/AGPR/SGPR, scratch, LDS and occupancy from the
  assembly; :func:`shippable` / :func:`refusal_reason` are the one rule on what may
  ship; :func:`link_hsaco` links an object into an HSACO with ``ld.lld``.
* NVIDIA: :func:`compile_ll` on an NVIDIA arch (or :func:`compile_ptx` with an explicit
  triple and cpu) gives PTX; :func:`run_ptxas` makes the cubin and reads ptxas's report into
  :class:`NvidiaResources`. :func:`compile_for_arch` takes either vendor's arch.

See platform/docs/toolchain.md.
"""

from rocke.isa.arch_compile import ArchCompile, compile_for_arch
from rocke.isa.compile import (
    DEFAULT_TIMEOUT,
    OUTPUTS,
    CompileJob,
    CompileResult,
    compile_ll,
    compile_many,
    compile_ptx,
)
from rocke.isa.errors import (
    CompilerChildError,
    FlavorMismatchError,
    LldError,
    LldNotFoundError,
    LLVMAbortError,
    LLVMCodegenError,
    LLVMTimeoutError,
    LLVMVerifyError,
    PtxasError,
    PtxasNotFoundError,
    ResourceParseError,
    ToolchainError,
)
from rocke.isa.hsaco import find_lld, link_hsaco
from rocke.isa.llvm_module import ir_sha256
from rocke.isa.ptxas import (
    NVIDIA_REFUSAL_REASONS,
    PTXAS_INSTALL_HINT,
    NvidiaResources,
    PtxasResult,
    find_ptxas,
    kernel_resources,
    nvidia_refusal_reason,
    ptxas_resources,
    run_ptxas,
)
from rocke.isa.resources import (
    REFUSAL_REASONS,
    Resources,
    all_resources,
    refusal_reason,
    resources,
    shippable,
)
from rocke.isa.targets import CodegenTarget, codegen_archs, codegen_target, shared_bytes_limit
from rocke.isa.toolchains import (
    FlavorToolchain,
    check_flavor,
    flavor_names,
    flavor_toolchain,
    llvm_major,
    llvm_version,
    llvmlite_version,
    running_flavor,
)
from rocke.isa.verify import verify_ll

__all__ = [
    "DEFAULT_TIMEOUT",
    "NVIDIA_REFUSAL_REASONS",
    "OUTPUTS",
    "PTXAS_INSTALL_HINT",
    "REFUSAL_REASONS",
    "ArchCompile",
    "CodegenTarget",
    "CompileJob",
    "CompileResult",
    "CompilerChildError",
    "FlavorMismatchError",
    "FlavorToolchain",
    "LLVMAbortError",
    "LLVMCodegenError",
    "LLVMTimeoutError",
    "LLVMVerifyError",
    "LldError",
    "LldNotFoundError",
    "NvidiaResources",
    "PtxasError",
    "PtxasNotFoundError",
    "PtxasResult",
    "ResourceParseError",
    "Resources",
    "ToolchainError",
    "all_resources",
    "check_flavor",
    "codegen_archs",
    "codegen_target",
    "compile_for_arch",
    "compile_ll",
    "compile_many",
    "compile_ptx",
    "find_lld",
    "find_ptxas",
    "flavor_names",
    "flavor_toolchain",
    "ir_sha256",
    "kernel_resources",
    "link_hsaco",
    "llvm_major",
    "llvm_version",
    "llvmlite_version",
    "nvidia_refusal_reason",
    "ptxas_resources",
    "refusal_reason",
    "resources",
    "run_ptxas",
    "running_flavor",
    "shared_bytes_limit",
    "shippable",
    "verify_ll",
]
