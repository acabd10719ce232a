"""The code-object cache on disk: compiled kernels kept between processes.

An entry is keyed by what determines the code object: the source digest (a spec's digest, or the
sha256 of a kernel's rocke.ir/1 text), the arch, the LLVM flavor and the toolchain version (rocke,
LLVM, and the vendor's assembler where there is one). It is one file `<key digest>.rco`:

    rocke.code-object/1\\n
    {"arch": ..., "bytes": N, "digest": ..., "flavor": ..., "kernel": ..., "sha256": ..., "toolchain": ...}\\n
    <N bytes of code object>

* Writes are atomic: a temporary file in the cache directory, then os.replace. A reader sees a
  whole entry or none, whatever other processes do at the same time.
* Every load checks the header against the key, the length and the sha256 of the code object; an
  entry that fails (truncated, tampered, another key's) is removed and rebuilt, never returned.
* The directory holds at most `max_bytes` of entries: after a store the least recently used ones
  (by modification time, which a hit refreshes) are removed until it fits (the new entry stays).

Directory: $ROCKE_CACHE_DIR, else ~/.cache/rocke. Only files named as entries (and temporary files
of interrupted writes, after an hour) are ever removed from it.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from .errors import CacheError

CACHE_ENV = "ROCKE_CACHE_DIR"
MAGIC = b"rocke.code-object/1\n"
SUFFIX = ".rco"
TEMP_PREFIX = ".tmp-"
DEFAULT_MAX_BYTES = 1 << 30
STALE_TEMP_SECONDS = 3600
MAX_HEADER_BYTES = 4096


@dataclass(frozen=True)
class CacheKey:
    kernel: str  # the kernel symbol (for people; the digest identifies the source)
    digest: str  # spec digest, or sha256 of the kernel's rocke.ir/1 text
    arch: str
    flavor: str
    toolchain: str  # toolchain version text

    def file_name(self) -> str:
        text = json.dumps(asdict(self), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest() + SUFFIX


@dataclass(frozen=True)
class CacheEntry:
    key: CacheKey
    path: Path
    bytes: int
    last_used: float  # seconds since the epoch


def default_cache_dir() -> Path:
    """$ROCKE_CACHE_DIR, else ~/.cache/rocke."""
    value = os.environ.get(CACHE_ENV)
    return Path(value) if value else Path.home() / ".cache" / "rocke"


def _header(key: CacheKey, payload: bytes) -> bytes:
    fields = {**asdict(key), "bytes": len(payload), "sha256": hashlib.sha256(payload).hexdigest()}
    return MAGIC + json.dumps(fields, sort_keys=True).encode() + b"\n"


def _read(path: Path) -> tuple[CacheKey, bytes] | None:
    """The key and code object of an entry file, or None if it is absent or fails its checks."""
    try:
        data = path.read_bytes()
    except (FileNotFoundError, IsADirectoryError, PermissionError):
        return None
    if not data.startswith(MAGIC):
        return None
    end = data.find(b"\n", len(MAGIC), len(MAGIC) + MAX_HEADER_BYTES)
    if end < 0:
        return None
    try:
        fields = json.loads(data[len(MAGIC):end])
        size, digest = fields.pop("bytes"), fields.pop("sha256")
        key = CacheKey(**fields)
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    payload = data[end + 1:]
    if len(payload) != size or hashlib.sha256(payload).hexdigest() != digest:
        return None
    return key, payload


class CodeObjectCache:
    """Code objects on disk under `directory`, at most `max_bytes` of entries."""

    def __init__(self, directory: Path | str | None = None, *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1:
            raise CacheError(f"max_bytes must be a positive int, got {max_bytes!r}")
        self.directory = Path(directory) if directory is not None else default_cache_dir()
        self.max_bytes = max_bytes

    def load(self, key: CacheKey) -> bytes | None:
        """The cached code object of `key`, verified; None when absent. A failing entry is removed."""
        path = self.directory / key.file_name()
        found = _read(path)
        if found is None or found[0] != key:
            if path.exists():
                self._remove(path)
            return None
        try:
            os.utime(path)  # a hit makes the entry the most recently used
        except OSError:
            pass
        return found[1]

    def store(self, key: CacheKey, code: bytes) -> None:
        """Write the entry atomically, then evict least recently used entries over the bound."""
        self.directory.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=self.directory)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(_header(key, code) + code)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temp, self.directory / key.file_name())
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
        self.evict(keep=key.file_name())

    def get_or_build(self, key: CacheKey, build: Callable[[], bytes]) -> bytes:
        """The cached code object of `key`, or `build()`'s, stored before it is returned."""
        code = self.load(key)
        if code is None:
            code = build()
            self.store(key, code)
        return code

    def entries(self) -> list[CacheEntry]:
        """Every valid entry, least recently used first (invalid ones are left for load to remove)."""
        found = []
        for path in self._entry_files():
            item = _read(path)
            try:
                stat = path.stat()
            except FileNotFoundError:
                continue
            if item is not None and item[0].file_name() == path.name:
                found.append(CacheEntry(item[0], path, stat.st_size, stat.st_mtime))
        return sorted(found, key=lambda entry: (entry.last_used, entry.path.name))

    def evict(self, *, keep: str = "") -> int:
        """Remove least recently used entries until the directory holds at most max_bytes (never the
        entry named `keep`), and temporary files of writes interrupted long ago; returns the count."""
        files = []
        for path in self._entry_files():
            try:
                stat = path.stat()
            except FileNotFoundError:
                continue
            files.append((stat.st_mtime, path.name, stat.st_size, path))
        total = sum(size for _, _, size, _ in files)
        removed = 0
        for _, name, size, path in sorted(files):
            if total <= self.max_bytes:
                break
            if name == keep:
                continue
            self._remove(path)
            total -= size
            removed += 1
        now = time.time()
        for temp in self.directory.glob(TEMP_PREFIX + "*"):
            try:
                if now - temp.stat().st_mtime > STALE_TEMP_SECONDS:
                    self._remove(temp)
            except FileNotFoundError:
                continue
        return removed

    def clear(self) -> tuple[int, int]:
        """Remove every entry (and temporary file); (entries removed, their bytes)."""
        count = size = 0
        for path in self._entry_files():
            try:
                size += path.stat().st_size
            except FileNotFoundError:
                continue
            self._remove(path)
            count += 1
        if self.directory.is_dir():
            for temp in self.directory.glob(TEMP_PREFIX + "*"):
                self._remove(temp)
        return count, size

    def _entry_files(self) -> list[Path]:
        if not self.directory.is_dir():
            return []
        return [path for path in self.directory.glob("*" + SUFFIX) if len(path.stem) == 64]

    @staticmethod
    def _remove(path: Path) -> None:
        path.unlink(missing_ok=True)
