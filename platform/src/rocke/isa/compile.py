"""Compile ``.ll`` modules with the AMDGPU or NVPTX backend, always in a child process.

LLVM ends the process on some errors (``LLVM ERROR: Cannot select`` for an
intrinsic the arch lacks, failed assertions, ...). A kernel author's Python
session or a CI gate must survive that, so every backend compile runs in a
spawned child Python running :mod:`rocke.isa._child`; its death becomes a typed
:class:`LLVMAbortError` for the one module being compiled, and the remaining
modules of a batch continue in a fresh child.
"""

from __future__ import annotations

import contextlib
import os
import select
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO

from rocke.isa import protocol
from rocke.isa.errors import (
    CompilerChildError,
    LLVMAbortError,
    LLVMCodegenError,
    LLVMTimeoutError,
    LLVMVerifyError,
    ToolchainError,
    describe_exit,
)
from rocke.isa.llvm_module import ir_sha256
from rocke.isa.targets import codegen_target
from rocke.isa.toolchains import check_flavor, toolchain_table

OUTPUTS = ("asm", "obj")
#: The outputs LLVM makes per vendor: NVPTX emits PTX text only (ptxas makes the cubin).
VENDOR_OUTPUTS = {"amd": ("asm", "obj"), "nvidia": ("asm",)}
#: Seconds a child may spend on one module before it is killed.
DEFAULT_TIMEOUT = 600.0
#: Seconds a fresh child may take to import llvmlite and register the targets.
STARTUP_TIMEOUT = 120.0


@dataclass(frozen=True)
class CompileJob:
    """One module to compile: ``.ll`` text, target arch, ``asm`` or ``obj``; ``label`` is echoed back.

    On an NVIDIA arch ``asm`` is PTX text and ``obj`` is refused (ptxas makes the cubin).
    """

    ll_text: str
    arch: str
    output: str = "asm"
    label: str = ""


@dataclass(frozen=True)
class CompileResult:
    """Outcome of one :class:`CompileJob`: exactly one of ``value`` / ``error`` is set."""

    index: int
    label: str
    arch: str
    output: str
    ir_sha256: str
    value: str | bytes | None
    error: ToolchainError | None

    @property
    def ok(self) -> bool:
        return self.error is None

    def unwrap(self) -> str | bytes:
        """The assembly text / object bytes, or raise the job's error."""
        if self.error is not None:
            raise self.error
        assert self.value is not None
        return self.value


def _check_output(output: str, arch: str, vendor: str) -> None:
    if output not in OUTPUTS:
        raise ValueError(f"unknown output '{output}'; known outputs: {', '.join(OUTPUTS)}")
    allowed = VENDOR_OUTPUTS[vendor]
    if output not in allowed:
        raise ValueError(
            f"output '{output}' is not made for {arch}: LLVM's NVPTX backend emits PTX text only "
            f"(outputs: {', '.join(allowed)}); rocke.isa.run_ptxas makes the cubin"
        )


def compile_ll(
    ll_text: str, arch: str, flavor: str, *, output: str = "asm", timeout: float | None = DEFAULT_TIMEOUT
) -> str | bytes:
    """Compile one module for ``arch``: assembly text (``output="asm"``) or ELF object bytes (``"obj"``).

    Raises ``FlavorMismatchError`` if the running LLVM does not validate
    ``flavor``, ``LLVMVerifyError`` if LLVM rejects the IR, ``LLVMCodegenError``
    for a reported backend error and ``LLVMAbortError`` if LLVM killed the
    compiler process.
    """
    (result,) = compile_many([CompileJob(ll_text, arch, output)], flavor, timeout=timeout)
    return result.unwrap()


def compile_many(
    jobs: Iterable[CompileJob], flavor: str, *, timeout: float | None = DEFAULT_TIMEOUT, children: int = 1
) -> Iterator[CompileResult]:
    """Compile many modules in as few child processes as possible, yielding results in job order.

    Results stream as the child produces them. A module that kills the child
    yields a result carrying ``LLVMAbortError`` (``LLVMTimeoutError`` after
    ``timeout`` seconds without progress) and the remaining modules continue
    in a fresh child. Per-module failures are returned, never raised; argument
    errors (flavor, arch, output) are raised before any child starts.
    ``children`` > 1 compiles that many interleaved shares of the jobs in as many
    concurrent children (one per core: LLVM's backend is single-threaded); the
    results are the same, still yielded in job order.
    """
    check_flavor(flavor)
    if children < 1:
        raise ValueError(f"children must be at least 1, not {children}")
    job_list = list(jobs)
    cpus: dict[str, tuple[str, str]] = {}
    for job in job_list:
        if job.arch not in cpus:
            target = codegen_target(job.arch)
            cpus[job.arch] = (target.triple, target.cpu)
        _check_output(job.output, job.arch, codegen_target(job.arch).vendor)
    return _start(job_list, cpus, timeout, children)


def _start(
    job_list: list[CompileJob], cpus: dict[str, tuple[str, str]], timeout: float | None, children: int
) -> Iterator[CompileResult]:
    if children == 1 or len(job_list) < 2:
        return _stream(job_list, cpus, timeout)
    return _concurrent(job_list, cpus, timeout, min(children, len(job_list)))


def _concurrent(
    jobs: Sequence[CompileJob], cpus: dict[str, tuple[str, str]], timeout: float | None, children: int
) -> Iterator[CompileResult]:
    """_stream over `children` interleaved shares (share c: jobs c, c + children, ...), each in its
    own thread and child process; results re-indexed to the whole list and yielded in order."""
    done: dict[int, CompileResult] = {}
    failure: list[BaseException] = []
    ready = threading.Condition()

    def share(first: int) -> None:
        picked = list(range(first, len(jobs), children))
        try:
            for result in _stream([jobs[i] for i in picked], cpus, timeout):
                with ready:
                    done[picked[result.index]] = replace(result, index=picked[result.index])
                    ready.notify_all()
        except BaseException as exc:  # re-raised in the consumer, in job order
            with ready:
                failure.append(exc)
                ready.notify_all()

    threads = [threading.Thread(target=share, args=(c,), daemon=True) for c in range(children)]
    for thread in threads:
        thread.start()
    for index in range(len(jobs)):
        with ready:
            while index not in done and not failure:
                ready.wait()
            if index not in done:
                raise failure[0]
            result = done.pop(index)
        yield result
    for thread in threads:
        thread.join()


def _stream(
    jobs: Sequence[CompileJob], cpus: dict[str, tuple[str, str]], timeout: float | None
) -> Iterator[CompileResult]:
    start = 0
    while start < len(jobs):
        before = start
        for result in _run_child(jobs, cpus, start, timeout):
            start = result.index + 1
            yield result
        if start == before:
            raise CompilerChildError(f"the compiler child process returned no result for job {start}")


# The child must import this very rocke, however the parent found it (source
# tree, wheel, test path hacks), and nothing from the working directory (-P).
_CHILD_BOOT = (
    "import sys\n"
    "if sys.argv[1] not in sys.path:\n"
    "    sys.path.insert(0, sys.argv[1])\n"
    "from rocke.isa._child import main\n"
    "sys.exit(main())\n"
)


def _child_command() -> list[str]:
    src_root = str(Path(__file__).resolve().parents[2])
    return [sys.executable, "-P", "-c", _CHILD_BOOT, src_root]


def _feed(stdin: IO[bytes], jobs: Sequence[CompileJob], cpus: dict[str, tuple[str, str]], start: int) -> None:
    try:
        stdin.write(protocol.REQUEST_MAGIC)
        for index in range(start, len(jobs)):
            job = jobs[index]
            data = job.ll_text.encode("utf-8")
            triple, cpu = cpus[job.arch]
            stdin.write(protocol.job_header(index, triple, cpu, job.output, len(data)))
            stdin.write(data)
            stdin.flush()
        stdin.write(protocol.END)
        stdin.flush()
    except (BrokenPipeError, OSError, ValueError):
        pass  # the child died; the reader reports why
    finally:
        with contextlib.suppress(OSError):
            stdin.close()


class _Eof(Exception):
    pass


class _Timeout(Exception):
    pass


class _Reader:
    """Reads frames from the child's stdout with a deadline (POSIX ``select``)."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._buf = bytearray()

    def _fill(self, deadline: float | None) -> None:
        remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
        ready, _, _ = select.select([self._fd], [], [], remaining)
        if not ready:
            raise _Timeout()
        chunk = os.read(self._fd, 1 << 20)
        if not chunk:
            raise _Eof()
        self._buf += chunk

    def line(self, deadline: float | None) -> bytes:
        while True:
            cut = self._buf.find(b"\n")
            if cut >= 0:
                out = bytes(self._buf[: cut + 1])
                del self._buf[: cut + 1]
                return out
            self._fill(deadline)

    def exact(self, nbytes: int, deadline: float | None) -> bytes:
        while len(self._buf) < nbytes:
            self._fill(deadline)
        out = bytes(self._buf[:nbytes])
        del self._buf[:nbytes]
        return out


def _deadline(timeout: float | None) -> float | None:
    return None if timeout is None else time.monotonic() + timeout


def _result(index: int, job: CompileJob, value=None, error=None) -> CompileResult:
    return CompileResult(
        index=index,
        label=job.label,
        arch=job.arch,
        output=job.output,
        ir_sha256=ir_sha256(job.ll_text),
        value=value,
        error=error,
    )


def _decode(index: int, job: CompileJob, status: str, payload: bytes) -> CompileResult:
    sha = ir_sha256(job.ll_text)
    if status == "ok":
        value: str | bytes = payload if job.output == "obj" else payload.decode("utf-8")
        return _result(index, job, value=value)
    message = payload.decode("utf-8", errors="replace")
    if status == "verify":
        return _result(index, job, error=LLVMVerifyError(message, ir_sha256=sha))
    return _result(index, job, error=LLVMCodegenError(message, ir_sha256=sha, arch=job.arch))


def _run_child(
    jobs: Sequence[CompileJob], cpus: dict[str, tuple[str, str]], start: int, timeout: float | None
) -> Iterator[CompileResult]:
    """Compile ``jobs[start:]`` in one child until it finishes or dies; yields one result per job done."""
    with tempfile.TemporaryFile() as errfile:
        proc = subprocess.Popen(
            _child_command(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errfile,
        )
        assert proc.stdin is not None and proc.stdout is not None
        writer = threading.Thread(target=_feed, args=(proc.stdin, jobs, cpus, start), daemon=True)
        writer.start()
        reader = _Reader(proc.stdout.fileno())

        def stderr_text() -> str:
            proc.wait()
            errfile.seek(0)
            return errfile.read().decode("utf-8", errors="replace")

        try:
            try:
                magic = reader.line(_deadline(STARTUP_TIMEOUT))
            except (_Eof, _Timeout):
                proc.kill()
                raise CompilerChildError(
                    f"the compiler child process did not start ({_exit_text(proc)}): {stderr_text().strip()}"
                ) from None
            if magic != protocol.RESPONSE_MAGIC:
                raise CompilerChildError("the compiler child process spoke an unknown protocol")
            index = start
            while index < len(jobs):
                job = jobs[index]
                deadline = _deadline(timeout)
                try:
                    got, status, nbytes = protocol.parse_result_header(reader.line(deadline))
                    payload = reader.exact(nbytes, deadline)
                except _Timeout:
                    proc.kill()
                    proc.wait()
                    assert timeout is not None
                    error = LLVMTimeoutError(
                        ir_sha256=ir_sha256(job.ll_text),
                        arch=job.arch,
                        timeout=timeout,
                        returncode=proc.returncode,
                    )
                    yield _result(index, job, error=error)
                    return
                except _Eof:
                    yield _result(index, job, error=_abort_error(job, index, stderr_text(), proc.returncode))
                    return
                except ValueError:
                    raise CompilerChildError("the compiler child process sent a malformed result") from None
                if got != index:
                    raise CompilerChildError(
                        f"the compiler child process answered job {got} while job {index} was expected"
                    )
                yield _decode(index, job, status, payload)
                index += 1
            # Let the child finish cleanly; it has nothing left that we need.
            with contextlib.suppress(_Eof, _Timeout):
                reader.line(_deadline(STARTUP_TIMEOUT))
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            writer.join()
            proc.stdout.close()


def _exit_text(proc: subprocess.Popen) -> str:
    proc.wait()
    return describe_exit(proc.returncode)


def _abort_error(job: CompileJob, index: int, stderr: str, returncode: int) -> LLVMAbortError:
    started, message = protocol.last_job_stderr(stderr)
    if started != index:
        # The child died outside any module: an environment problem, not this module's fault.
        raise CompilerChildError(
            f"the compiler child process died before job {index} ({describe_exit(returncode)}): {message}"
        )
    return LLVMAbortError(
        message or "(no message)", ir_sha256=ir_sha256(job.ll_text), arch=job.arch, returncode=returncode
    )


def compile_ptx(
    ll_text: str,
    flavor: str,
    *,
    triple: str | None = None,
    cpu: str,
    timeout: float | None = DEFAULT_TIMEOUT,
) -> str:
    """Compile one module with the NVPTX backend for an explicit ``triple`` and ``cpu`` (e.g. ``sm_90``).

    ``triple`` defaults to ``nvptx64-nvidia-cuda`` (the one NVPTX triple of ``data/toolchains.toml``);
    ``cpu`` need not be an arch of the table. Errors as :func:`compile_ll`, reported for ``cpu``.
    """
    check_flavor(flavor)
    nvptx_triple = toolchain_table().nvptx.triple
    triple = triple or nvptx_triple
    if triple != nvptx_triple:
        raise ValueError(f"unknown NVPTX triple '{triple}'; known: {nvptx_triple}")
    if not cpu or any(ch.isspace() for ch in cpu):
        raise ValueError(f"cpu must be one word such as sm_90, not {cpu!r}")
    (result,) = _start([CompileJob(ll_text, cpu, "asm")], {cpu: (triple, cpu)}, timeout, 1)
    value = result.unwrap()
    assert isinstance(value, str)
    return value
