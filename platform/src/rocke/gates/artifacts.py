"""Artifacts a C++ host loads (platform/docs/gates.md, Artifacts): one built kernel written as files.

`write_artifacts` writes, into one directory, ``KERNEL.ll`` (the flavor's LLVM IR), ``KERNEL.rir``
(the canonical rocke.ir/1 text), ``KERNEL.launch.json`` (the launch template,
:func:`rocke.families.launch.launch_template`, or, given a problem, the family's launch contract
for that problem, ``rocke.launch/1``) and, when ld.lld is present and the running LLVM
validates the flavor, ``KERNEL.hsaco`` (the code object). Each file is written to a temporary
name in the directory and renamed into place, so a reader never sees half a file, and an
artifact set is written only once everything in it has been produced.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from rocke.engine import lower
from rocke.families.launch import launch_template, template_json
from rocke.ir import KernelDef, print_kernel
from rocke.isa import compile_ll, find_lld, link_hsaco, running_flavor
from rocke.isa.hsaco import LLD_ENV


@dataclass(frozen=True)
class Artifacts:
    written: tuple[Path, ...]
    skipped: tuple[str, ...] = field(default=())  # why an artifact was not written (e.g. no ld.lld)


def hsaco_skip_reason(flavor: str) -> str | None:
    """Why no HSACO can be linked here for flavor, or None when it can."""
    if find_lld() is None:
        explicit = os.environ.get(LLD_ENV)
        if explicit:
            return f"ld.lld not found: {LLD_ENV}={explicit} is not an executable (fix or unset {LLD_ENV})"
        return f"ld.lld not found (install Debian package lld-19, or set {LLD_ENV})"
    running = running_flavor()
    if running != flavor:
        return f"the running LLVM validates {running or 'no known flavor'}, not {flavor}"
    return None


def compile_hsaco(ll: str, arch: str, flavor: str) -> bytes:
    """The HSACO of one module: compiled by the real LLVM (in a child process), linked by ld.lld."""
    obj = compile_ll(ll, arch, flavor, output="obj")
    assert isinstance(obj, bytes)
    return link_hsaco(obj)


def write_atomically(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_artifacts(kernel: KernelDef, *, family: str, spec: str, arch: str, flavor: str, out: Path,
                    engine: str | None = None, hsaco: bool = True, contract: str | None = None) -> Artifacts:
    """Write KERNEL.{ll,rir,launch.json} (and .hsaco when it can be linked) into out. `contract` (a
    LaunchContract's JSON for one problem) replaces the problem-independent launch template."""
    ll = lower(kernel, arch=arch, flavor=flavor, engine=engine)
    files: dict[str, bytes] = {
        f"{kernel.name}.ll": ll.encode(),
        f"{kernel.name}.rir": print_kernel(kernel).encode(),
        f"{kernel.name}.launch.json": (contract if contract is not None else template_json(
            launch_template(kernel, family=family, spec=spec, arch=arch))).encode(),
    }
    skipped: list[str] = []
    reason = hsaco_skip_reason(flavor) if hsaco else "not asked for"
    if reason is None:
        files[f"{kernel.name}.hsaco"] = compile_hsaco(ll, arch, flavor)
    else:
        skipped.append(f"{kernel.name}.hsaco: {reason}")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, data in files.items():
        write_atomically(out / name, data)
        written.append(out / name)
    return Artifacts(tuple(written), tuple(skipped))
