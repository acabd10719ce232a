"""Typed errors of the real-toolchain layer.

Every message is built from plain strings and integers so that it reads the
same wherever it is printed (logs, gate reports, JSON).
"""

from __future__ import annotations

import signal


class ToolchainError(RuntimeError):
    """Base class of every failure reported by ``rocke.isa``."""


class FlavorMismatchError(ToolchainError):
    """The requested flavor is validated by an LLVM other than the running one."""


class LLVMVerifyError(ToolchainError):
    """LLVM refused to parse or verify a module; ``message`` is LLVM's text."""

    def __init__(self, message: str, *, ir_sha256: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.ir_sha256 = ir_sha256


class LLVMCodegenError(ToolchainError):
    """The backend reported an error without killing the process."""

    def __init__(self, message: str, *, ir_sha256: str, arch: str) -> None:
        super().__init__(f"LLVM codegen failed for {arch} (ir sha256 {ir_sha256}): {message}")
        self.message = message
        self.ir_sha256 = ir_sha256
        self.arch = arch


def describe_exit(returncode: int) -> str:
    """Human-readable child exit status, e.g. ``killed by SIGABRT`` or ``exit code 1``."""
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"killed by {name}"
    return f"exit code {returncode}"


class LLVMAbortError(ToolchainError):
    """The compiler child process died (LLVM abort, crash or non-zero exit).

    ``message`` is what LLVM printed on stderr while compiling this module,
    ``ir_sha256`` the sha256 of the module's ``.ll`` bytes.
    """

    def __init__(self, message: str, *, ir_sha256: str, arch: str, returncode: int) -> None:
        status = describe_exit(returncode)
        super().__init__(
            f"LLVM aborted while compiling for {arch} (ir sha256 {ir_sha256}, child {status}): {message}"
        )
        self.message = message
        self.ir_sha256 = ir_sha256
        self.arch = arch
        self.returncode = returncode


class LLVMTimeoutError(LLVMAbortError):
    """The compiler child produced no result within the allowed time and was killed."""

    def __init__(self, *, ir_sha256: str, arch: str, timeout: float, returncode: int) -> None:
        super().__init__(
            f"no result after {timeout:g} s", ir_sha256=ir_sha256, arch=arch, returncode=returncode
        )
        self.timeout = timeout


class CompilerChildError(ToolchainError):
    """The compiler child process failed outside of any module (e.g. it could not start)."""


class LldNotFoundError(ToolchainError):
    """No ``ld.lld`` was found to link a code object into an HSACO."""


class LldError(ToolchainError):
    """``ld.lld`` ran and failed."""


class PtxasNotFoundError(ToolchainError):
    """No ``ptxas`` was found to assemble PTX into a cubin."""


class PtxasError(ToolchainError):
    """``ptxas`` ran and failed; ``message`` is its output."""

    def __init__(self, message: str, *, arch: str, returncode: int) -> None:
        super().__init__(f"ptxas failed for {arch} ({describe_exit(returncode)}): {message}")
        self.message = message
        self.arch = arch
        self.returncode = returncode


class ResourceParseError(ValueError):
    """The assembly text (or ptxas's report, or a cubin) lacks, or has malformed, resource data."""
