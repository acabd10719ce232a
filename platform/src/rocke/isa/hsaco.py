"""Link an AMDGPU ELF object into a loadable HSACO with ``ld.lld -shared``.

llvmlite bundles no linker, so this is the one step that needs a system
tool: Debian's ``lld-19`` (or any newer lld) is enough for every arch here.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from rocke.isa.errors import LldError, LldNotFoundError

#: Environment variable naming an explicit ld.lld to use.
LLD_ENV = "ROCKE_LLD"
LLD_INSTALL_HINT = "install Debian package lld-19"

_ELF_MAGIC = b"\x7fELF"
_EM_AMDGPU = 224
_ET_REL = 1
_ET_DYN = 3

_VERSIONED_RE = re.compile(r"^ld\.lld-([0-9]+)$")
_LLVM_DIR_RE = re.compile(r"^llvm-([0-9]+)$")


def _versioned_on_path() -> list[tuple[int, str]]:
    found: dict[int, str] = {}
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        if not directory or not os.path.isdir(directory):
            continue
        for entry in sorted(os.listdir(directory)):
            match = _VERSIONED_RE.match(entry)
            path = os.path.join(directory, entry)
            if match and os.access(path, os.X_OK):
                # The first PATH directory wins for a given version, as a shell would.
                found.setdefault(int(match.group(1)), path)
    return sorted(found.items(), reverse=True)


def _llvm_installs() -> list[tuple[int, str]]:
    found = []
    for directory in sorted(glob.glob("/usr/lib/llvm-*")):
        match = _LLVM_DIR_RE.match(os.path.basename(directory))
        path = os.path.join(directory, "bin", "ld.lld")
        if match and os.access(path, os.X_OK):
            found.append((int(match.group(1)), path))
    return sorted(found, reverse=True)


def find_lld() -> str | None:
    """Path of the ld.lld to use, or None.

    Search order: ``$ROCKE_LLD`` (must exist if set), ``ld.lld`` on PATH,
    ``ld.lld-N`` on PATH (highest N first), ``/usr/lib/llvm-N/bin/ld.lld``
    (highest N first).
    """
    explicit = os.environ.get(LLD_ENV)
    if explicit:
        return shutil.which(explicit)
    plain = shutil.which("ld.lld")
    if plain:
        return plain
    candidates = _versioned_on_path() + _llvm_installs()
    return candidates[0][1] if candidates else None


def _elf_type_machine(data: bytes) -> tuple[int, int] | None:
    if len(data) < 20 or not data.startswith(_ELF_MAGIC) or data[5] != 1:  # little-endian only
        return None
    return int.from_bytes(data[16:18], "little"), int.from_bytes(data[18:20], "little")


def link_hsaco(obj_bytes: bytes, *, lld: str | None = None) -> bytes:
    """Link one AMDGPU relocatable object (``compile_ll(..., output="obj")``) into HSACO bytes.

    Raises ``LldNotFoundError`` when no ld.lld is available, ``ValueError`` if
    ``obj_bytes`` is not an AMDGPU ELF relocatable object and ``LldError`` if
    the link fails.
    """
    if _elf_type_machine(obj_bytes) != (_ET_REL, _EM_AMDGPU):
        raise ValueError("link_hsaco needs an AMDGPU ELF relocatable object (compile_ll output='obj')")
    linker = lld or find_lld()
    if linker is None:
        if os.environ.get(LLD_ENV):
            raise LldNotFoundError(f"ld.lld not found: {LLD_ENV}={os.environ[LLD_ENV]} is not an executable")
        raise LldNotFoundError(f"ld.lld not found: {LLD_INSTALL_HINT}")
    with tempfile.TemporaryDirectory(prefix="rocke-hsaco-") as tmp:
        obj_path = Path(tmp) / "kernel.o"
        out_path = Path(tmp) / "kernel.hsaco"
        obj_path.write_bytes(obj_bytes)
        try:
            proc = subprocess.run(
                [linker, "-shared", str(obj_path), "-o", str(out_path)],
                capture_output=True,
                text=True,
                check=False,
            )
        except OSError as exc:
            raise LldNotFoundError(f"ld.lld could not be run ({linker}): {exc.strerror}") from None
        if proc.returncode != 0:
            raise LldError(f"ld.lld failed ({linker}, exit code {proc.returncode}): {proc.stderr.strip()}")
        hsaco = out_path.read_bytes()
    if _elf_type_machine(hsaco) != (_ET_DYN, _EM_AMDGPU):
        raise LldError(f"ld.lld ({linker}) did not produce an AMDGPU shared object")
    return hsaco
