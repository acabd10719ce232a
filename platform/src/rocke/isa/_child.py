"""Compiler child process: runs the AMDGPU backend on framed ``.ll`` modules.

Started by :mod:`rocke.isa.compile` (or by hand: ``python -m rocke.isa._child``). LLVM
aborts the whole process on some errors, so this process is disposable: the
parent sees it die, reads stderr and carries on in a fresh child.
See :mod:`rocke.isa.protocol` for the framing.
"""

from __future__ import annotations

import os
import sys
from typing import BinaryIO

from rocke.isa import protocol
from rocke.isa.errors import LLVMVerifyError
from rocke.isa.llvm_module import llvm_binding, parse_and_verify, target_datalayout
from rocke.isa.toolchains import toolchain_table


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
    """One target machine per ``-mcpu`` name, created on first use."""

    def __init__(self) -> None:
        self._llvm = llvm_binding()
        cfg = toolchain_table().target
        self._cfg = cfg
        self._target = self._llvm.Target.from_triple(cfg.triple)
        self._machines: dict[str, object] = {}

    def machine(self, cpu: str):
        if cpu not in self._machines:
            self._machines[cpu] = self._target.create_target_machine(
                cpu=cpu, opt=self._cfg.codegen_opt_level, codemodel=self._cfg.code_model
            )
        return self._machines[cpu]

    def compile(self, ll_text: str, cpu: str, output: str) -> tuple[str, bytes]:
        try:
            module = parse_and_verify(ll_text)
        except LLVMVerifyError as exc:
            return "verify", exc.message.encode("utf-8")
        # As llc does: a module that names no target gets the backend's own.
        if not module.triple:
            module.triple = self._cfg.triple
        if not module.data_layout:
            module.data_layout = target_datalayout()
        machine = self.machine(cpu)
        try:
            if output == "obj":
                if _uses_inline_asm(module):
                    return "codegen", INLINE_ASM_OBJ_MESSAGE.encode("utf-8")
                return "ok", bytes(machine.emit_object(module))
            return "ok", machine.emit_assembly(module).encode("utf-8")
        except RuntimeError as exc:
            return "codegen", str(exc).rstrip().encode("utf-8")


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
        index, cpu, output, nbytes = protocol.parse_job_header(line)
        ll_text = _read_exact(stdin, nbytes).decode("utf-8")
        sys.stderr.write(protocol.stderr_marker(index))
        sys.stderr.flush()
        status, payload = backend.compile(ll_text, cpu, output)
        out.write(protocol.result_header(index, status, len(payload)))
        out.write(payload)
        out.flush()
    out.write(protocol.DONE)
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
