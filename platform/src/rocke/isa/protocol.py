"""Byte framing between the compiler parent and its child process.

Request (child's stdin)::

    rocke-isa-request/2
    job <index> <triple> <cpu> <output> <nbytes>   followed by <nbytes> of .ll text (UTF-8)
    ...
    end

Response (child's stdout)::

    rocke-isa-response/2                       sent once LLVM is initialised
    result <index> <status> <nbytes>           followed by <nbytes> of payload
    ...
    done

``triple`` picks the backend (AMDGPU or NVPTX), ``cpu`` its ``-mcpu``.
``status`` is ``ok`` (payload = assembly/PTX text or object bytes), ``verify``
(payload = LLVM's parse/verify message) or ``codegen`` (payload = the
backend's non-fatal error text). Before each job the child writes the line
``@@rocke-isa job <index>`` to stderr, so that whatever LLVM prints before an
abort can be attributed to the module that caused it.
"""

from __future__ import annotations

import re

REQUEST_MAGIC = b"rocke-isa-request/2\n"
RESPONSE_MAGIC = b"rocke-isa-response/2\n"
END = b"end\n"
DONE = b"done\n"
STATUSES = ("ok", "verify", "codegen")

_MARKER_RE = re.compile(r"^@@rocke-isa job (\d+)$", re.MULTILINE)


def job_header(index: int, triple: str, cpu: str, output: str, nbytes: int) -> bytes:
    return f"job {index} {triple} {cpu} {output} {nbytes}\n".encode("ascii")


def result_header(index: int, status: str, nbytes: int) -> bytes:
    return f"result {index} {status} {nbytes}\n".encode("ascii")


def stderr_marker(index: int) -> str:
    # Leading newline: LLVM may have left a partial line on stderr.
    return f"\n@@rocke-isa job {index}\n"


def parse_job_header(line: bytes) -> tuple[int, str, str, str, int]:
    parts = line.decode("ascii").split()
    if len(parts) != 6 or parts[0] != "job":
        raise ValueError("malformed job header")
    return int(parts[1]), parts[2], parts[3], parts[4], int(parts[5])


def parse_result_header(line: bytes) -> tuple[int, str, int]:
    parts = line.decode("ascii", errors="replace").split()
    if len(parts) != 4 or parts[0] != "result" or parts[2] not in STATUSES:
        raise ValueError("malformed result header")
    return int(parts[1]), parts[2], int(parts[3])


def last_job_stderr(stderr_text: str) -> tuple[int | None, str]:
    """(index of the last job the child started, stderr written since), or (None, all stderr)."""
    last = None
    for match in _MARKER_RE.finditer(stderr_text):
        last = match
    if last is None:
        return None, stderr_text.strip()
    return int(last.group(1)), stderr_text[last.end() :].strip()
