"""Reading rocke.ir/1 input from a file or stdin, bounded in size.

The limit is ir.toml's format.max_input_bytes (256 MiB), overridden by the environment variable
ROCKE_MAX_INPUT_BYTES. A reader stops one byte past the limit and refuses the input, so a device
like /dev/zero or an endless pipe never fills memory. The C++ twin is rocke/ir/source.cpp; both
word every refusal the same.
"""

from __future__ import annotations

import os
import stat
import sys

from .facts import MAX_INPUT_BYTES

LIMIT_ENV = "ROCKE_MAX_INPUT_BYTES"
_CHUNK = 1 << 20


class InputError(ValueError):
    """An input that cannot be read or is over the size limit; the message names the input."""


def max_input_bytes() -> int:
    """The input size limit in bytes: $ROCKE_MAX_INPUT_BYTES if set, else ir.toml's default."""
    text = os.environ.get(LIMIT_ENV)
    if text is None:
        return MAX_INPUT_BYTES
    if not (text.isascii() and text.isdigit() and 0 < len(text) <= 18 and int(text) > 0):
        raise InputError(f"{LIMIT_ENV}: expected a positive decimal number of bytes (at most 18 digits)")
    return int(text)


def read_source(path: str) -> bytes:
    """The bytes of file `path` ("-" is stdin), refusing more than max_input_bytes()."""
    limit = max_input_bytes()
    if path == "-":
        return _read_limited(sys.stdin.buffer, "<stdin>", limit)
    try:
        with open(path, "rb") as handle:
            if stat.S_ISDIR(os.fstat(handle.fileno()).st_mode):
                raise IsADirectoryError(21, os.strerror(21))
            return _read_limited(handle, path, limit)
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None


def _read_limited(handle, name: str, limit: int) -> bytes:
    parts: list[bytes] = []
    size = 0
    while True:
        chunk = handle.read(min(_CHUNK, limit + 1 - size))
        if not chunk:
            return b"".join(parts)
        parts.append(chunk)
        size += len(chunk)
        if size > limit:
            raise InputError(f"{name}: input larger than {limit} bytes (the limit; {LIMIT_ENV} changes it)")

