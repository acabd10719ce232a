"""Parse and verify ``.ll`` text with llvmlite (safe in-process: no codegen here).

Used both by :func:`rocke.isa.verify_ll` in the caller's process and by the
compiler child before it hands a module to the backend.
"""

from __future__ import annotations

import functools
import hashlib

from rocke.isa.errors import LLVMVerifyError
from rocke.isa.toolchains import backend_settings, toolchain_table


def ir_sha256(ll_text: str) -> str:
    """sha256 (hex) of the module's UTF-8 bytes: the identity carried by toolchain errors."""
    return hashlib.sha256(ll_text.encode("utf-8")).hexdigest()


@functools.cache
def _binding():
    import llvmlite.binding as llvm

    # Never llvm.initialize(): since llvmlite 0.45 the core initializes itself and it raises.
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    return llvm


def llvm_binding():
    """``llvmlite.binding`` with every target and asm printer registered."""
    return _binding()


@functools.cache
def target_datalayout(triple: str | None = None) -> str:
    """The datalayout string the running LLVM uses for ``triple`` (default: the AMDGPU triple)."""
    llvm = _binding()
    triple = triple or toolchain_table().target.triple
    opt, code_model = backend_settings(triple)
    machine = llvm.Target.from_triple(triple).create_target_machine(cpu="", opt=opt, codemodel=code_model)
    return str(machine.target_data)


def parse_and_verify(ll_text: str, triple: str | None = None):
    """Parse, check target and verify a module; returns the llvmlite ``ModuleRef``.

    Raises ``LLVMVerifyError`` with LLVM's own message. Beyond LLVM's verifier,
    the module must target ``triple`` (default: the AMDGPU triple) or name none and,
    if it states a datalayout, state exactly the running LLVM's for that triple: a
    stale datalayout is the first sign of a flavor emitted for another LLVM.
    """
    llvm = _binding()
    sha = ir_sha256(ll_text)
    try:
        module = llvm.parse_assembly(ll_text)
    except RuntimeError as exc:
        raise LLVMVerifyError(str(exc).rstrip(), ir_sha256=sha) from None
    triple = triple or toolchain_table().target.triple
    if module.triple and module.triple != triple:
        raise LLVMVerifyError(f"module target triple is {module.triple}, expected {triple}", ir_sha256=sha)
    expected_dl = target_datalayout(triple)
    if module.data_layout and module.data_layout != expected_dl:
        raise LLVMVerifyError(
            f"module datalayout does not match this LLVM's {triple} datalayout\n"
            f"  module: {module.data_layout}\n"
            f"  LLVM:   {expected_dl}",
            ir_sha256=sha,
        )
    try:
        module.verify()
    except RuntimeError as exc:
        raise LLVMVerifyError("LLVM IR verification error\n" + str(exc).rstrip(), ir_sha256=sha) from None
    return module
