"""rocke.isa: the real LLVM toolchain (llvmlite's AMDGPU backend).

* :func:`verify_ll` parses and verifies ``.ll`` text in-process.
* :func:`compile_ll` / :func:`compile_many` compile it to assembly or an ELF
  object, always in a spawned child process so an LLVM abort cannot take the
  caller down (it becomes :class:`LLVMAbortError`).
* :func:`resources` reads VGPR/AGPR/SGPR, scratch, LDS and occupancy from the
  assembly; :func:`shippable` / :func:`refusal_reason` are the one rule on what may
  ship; :func:`link_hsaco` links an object into an HSACO with ``ld.lld``.

See platform/docs/toolchain.md.
"""

from rocke.isa.compile import DEFAULT_TIMEOUT, OUTPUTS, CompileJob, CompileResult, compile_ll, compile_many
from rocke.isa.errors import (
    CompilerChildError,
    FlavorMismatchError,
    LldError,
    LldNotFoundError,
    LLVMAbortError,
    LLVMCodegenError,
    LLVMTimeoutError,
    LLVMVerifyError,
    ResourceParseError,
    ToolchainError,
)
from rocke.isa.hsaco import find_lld, link_hsaco
from rocke.isa.llvm_module import ir_sha256
from rocke.isa.resources import (
    REFUSAL_REASONS,
    Resources,
    all_resources,
    refusal_reason,
    resources,
    shippable,
)
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
    "OUTPUTS",
    "REFUSAL_REASONS",
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
    "ResourceParseError",
    "Resources",
    "ToolchainError",
    "all_resources",
    "check_flavor",
    "compile_ll",
    "compile_many",
    "find_lld",
    "flavor_names",
    "flavor_toolchain",
    "ir_sha256",
    "link_hsaco",
    "llvm_major",
    "llvm_version",
    "llvmlite_version",
    "refusal_reason",
    "resources",
    "running_flavor",
    "shippable",
    "verify_ll",
]
