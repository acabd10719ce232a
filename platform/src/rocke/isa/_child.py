"""Compiler child process: runs the AMDGPU or NVPTX backend on framed ``.ll`` modules.

Started by :mod:`rocke.isa.compile` (or by hand: ``python -m rocke.isa._child``). LLVM
aborts the whole process on some errors, so this process is disposable: the
parent sees it die, reads stderr and carries on in a fresh child.
See :mod:`rocke.isa.protocol` for the framing.
"""

from __future__ import annotations

import os
import re
import sys
from typing import BinaryIO

from rocke.isa import protocol
from rocke.isa.errors import LLVMVerifyError
from rocke.isa.llvm_module import llvm_binding, parse_and_verify, target_datalayout
from rocke.isa.toolchains import backend_settings, toolchain_table


def _read_exact(stream: BinaryIO, nbytes: int) -> bytes:
    data = stream.read(nbytes)
    if data is None or len(data) != nbytes:
        raise EOFError("truncated request")
    return data


# llvmlite bundles no AMDGPU assembler, and LLVM aborts the process if object
# emission meets inline asm; refuse it up front with a plain message instead.
INLINE_ASM_OBJ_MESSAGE = (
    "inline asm cannot be emitted as an object: llvmlite bundles no AMDGPU assembler (compile to asm instead)"
)


# LLVM's NVPTX backend emits PTX text only; the cubin comes from ptxas.
NVPTX_OBJ_MESSAGE = "the NVPTX backend emits PTX text only (compile to asm, then run ptxas for the cubin)"

# A declared llvm.* name that is no intrinsic of this LLVM passes the verifier and becomes a call to
# an external PTX function, which ptxas cannot parse; report it by name instead.
_EXTERN_LLVM_RE = re.compile(r"^\.extern \.func\b[^\n]*?\b(llvm\.[A-Za-z0-9_.]+)", re.MULTILINE)


def unknown_intrinsics(ptx_text: str) -> tuple[str, ...]:
    """``llvm.*`` names the PTX declares as external functions: intrinsics this LLVM does not know."""
    return tuple(sorted(set(_EXTERN_LLVM_RE.findall(ptx_text))))


def unknown_intrinsic_message(names: tuple[str, ...]) -> str:
    return (
        f"{', '.join(names)}: not an intrinsic of this LLVM "
        "(the NVPTX backend emitted a call to an external function of that name)"
    )


def _uses_inline_asm(module) -> bool:
    inline_asm = llvm_binding().ValueKind.inline_asm
    for function in module.functions:
        for block in function.blocks:
            for inst in block.instructions:
                if inst.opcode in ("call", "callbr", "invoke") and any(
                    op.value_kind == inline_asm for op in inst.operands
                ):
                    return True
    return False


class _Backend:
    """One target machine per (triple, ``-mcpu``), created on first use."""

    def __init__(self) -> None:
        self._llvm = llvm_binding()
        self._nvptx_triple = toolchain_table().nvptx.triple
        self._machines: dict[tuple[str, str], object] = {}

    def machine(self, triple: str, cpu: str):
        key = (triple, cpu)
        if key not in self._machines:
            opt, code_model = backend_settings(triple)
            self._machines[key] = self._llvm.Target.from_triple(triple).create_target_machine(
                cpu=cpu, opt=opt, codemodel=code_model
            )
        return self._machines[key]

    def compile(self, ll_text: str, triple: str, cpu: str, output: str) -> tuple[str, bytes]:
        try:
            module = parse_and_verify(ll_text, triple)
        except LLVMVerifyError as exc:
            return "verify", exc.message.encode("utf-8")
        # As llc does: a module that names no target gets the backend's own.
        if not module.triple:
            module.triple = triple
        if not module.data_layout:
            module.data_layout = target_datalayout(triple)
        nvptx = triple == self._nvptx_triple
        if nvptx and output == "obj":
            return "codegen", NVPTX_OBJ_MESSAGE.encode("utf-8")
        machine = self.machine(triple, cpu)
        try:
            if output == "obj":
                if _uses_inline_asm(module):
                    return "codegen", INLINE_ASM_OBJ_MESSAGE.encode("utf-8")
                return "ok", bytes(machine.emit_object(module))
            text = machine.emit_assembly(module)
        except RuntimeError as exc:
            return "codegen", str(exc).rstrip().encode("utf-8")
        unknown = unknown_intrinsics(text) if nvptx else ()
        if unknown:
            return "codegen", unknown_intrinsic_message(unknown).encode("utf-8")
        return "ok", text.encode("utf-8")


def main() -> int:
    # Keep a private handle on the real stdout for the protocol and point fd 1
    # at stderr, so nothing LLVM or Python prints can corrupt the framing.
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    stdin = sys.stdin.buffer

    backend = _Backend()
    out.write(protocol.RESPONSE_MAGIC)
    out.flush()

    if stdin.readline() != protocol.REQUEST_MAGIC:
        print("rocke.isa child: bad request header", file=sys.stderr)
        return 2
    while True:
        line = stdin.readline()
        if line in (protocol.END, b""):
            break
        index, triple, cpu, output, nbytes = protocol.parse_job_header(line)
        ll_text = _read_exact(stdin, nbytes).decode("utf-8")
        sys.stderr.write(protocol.stderr_marker(index))
        sys.stderr.flush()
        status, payload = backend.compile(ll_text, triple, cpu, output)
        out.write(protocol.result_header(index, status, len(payload)))
        out.write(payload)
        out.flush()
    out.write(protocol.DONE)
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
