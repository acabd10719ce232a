"""The three emitters the gates compare: Python engine, C++ engine via bindings, native emitter.

Each turns one config into an :class:`Emission`: the canonical IR and one .ll per
flavor, or a refusal message, or a crash (anything unexpected).
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rocke.arch import get_flavor, resolve_arch
from rocke.engine import native_engine
from rocke.families import Family, SpecError, build_family
from rocke.families.configs import ConfigLine, config_path
from rocke.gates.frames import FrameError, read_records
from rocke.ir import KernelDef, print_kernel, verify
from rocke.ir.builder import defer_finish_verify
from rocke.ir.verifier import verify_once
from rocke.lower import LowerError, lower_verified

FLAVORS = ("llvm20", "llvm22")


@dataclass(frozen=True)
class Emission:
    ir: str | None = None
    ll: dict[str, str] = field(default_factory=dict)
    refusal: str | None = None
    crash: str | None = None

    @property
    def status(self) -> str:
        return "crash" if self.crash is not None else "refused" if self.refusal is not None else "built"

    @property
    def ir_lines(self) -> int:
        """The kernel's size as the gates' timing tables count it: lines of its IR text (0 unless built)."""
        return self.ir.count("\n") if self.ir is not None else 0


def emit_python(family: Family, config: ConfigLine, flavors: tuple[str, ...] = FLAVORS, *,
                resource_table: bool = True) -> Emission:
    """The Python engine's output for one config; ``resource_table=False`` skips the family's
    resource-refusal table (the validity gate measures the specs that table refuses)."""
    try:
        spec = family.spec.from_kv(config.kv)

        def build() -> KernelDef:
            return build_family(family, spec, config.arch) if resource_table else family.build(spec, config.arch)

        kernel = _emit_verified(build, config.arch, flavors)
        ll = {flavor: lower_verified(kernel, arch=config.arch, flavor=flavor) for flavor in flavors}
    except (SpecError, LowerError) as exc:
        return Emission(refusal=str(exc))
    except Exception as exc:  # a gate reports every failure as data; it never dies on one config
        return Emission(crash=f"{type(exc).__name__}: {exc}")
    return Emission(ir=print_kernel(kernel), ll=ll)


def _emit_verified(build: Callable[[], KernelDef], arch: str, flavors: tuple[str, ...]) -> KernelDef:
    """build()'s kernel, verified once for arch as lower() would verify it (C++ twin:
    gates::emit_family): finish's verification is deferred and done here, so each flavor lowers
    without verifying again, and a builder's own verify(kernel, arch) makes this one free. An error
    after a deferred finish, or a builder that finished several kernels, builds again with finish
    verifying, so what is raised is what the plain build and lower raise (builders are pure); an
    error before finish is the plain build's already."""
    with verify_once():  # the builder's own verify(kernel, arch) makes the one below free
        kernel = None
        with defer_finish_verify() as scope:
            try:
                kernel = build()
            except Exception:
                if scope.deferred == 0:
                    raise
        if kernel is None or scope.deferred > 1:
            kernel, unverified = build(), False
        else:
            unverified = scope.deferred == 1
        if flavors:
            try:
                get_flavor(flavors[0])  # lower() checks the flavor before the arch
                verify(kernel, resolve_arch(arch))
            except Exception:
                if unverified:
                    verify(kernel)  # finish's error comes first, when there is one
                raise
        elif unverified:
            verify(kernel)
    return kernel


def emit_cpp(family: Family, config: ConfigLine, flavors: tuple[str, ...] = FLAVORS) -> Emission:
    """The C++ engine's output for one config through the family's engine module: its
    ``emit_family`` builds, verifies and lowers in one call (no IR text in between); a module
    without it is driven through ``build_family`` and the core's text-path ``lower``."""
    try:
        # An imported engine module is taken from sys.modules directly: import_module's own
        # lookup costs several microseconds, a noticeable part of a small kernel's C++ emission.
        module = sys.modules.get(family.cpp_engine) or importlib.import_module(family.cpp_engine)
        emit = getattr(module, "emit_family", None)
        builder = getattr(module, "build_family", None)
        if emit is None and builder is None:
            return Emission(crash=f"{family.cpp_engine} has no build_family (C++ twin missing)")
        try:
            if emit is not None:
                ir, ll = emit(family.name, config.kv, config.arch, list(flavors))
            else:
                ir = builder(family.name, config.kv, config.arch)
                core = native_engine()
                ll = {flavor: core.lower(ir, config.arch, flavor) for flavor in flavors}
        except ValueError as exc:
            return Emission(refusal=str(exc))
    except Exception as exc:
        return Emission(crash=f"{type(exc).__name__}: {exc}")
    return Emission(ir=ir, ll=ll)


def emitter_search_dirs() -> list[Path]:
    """Where native emitters are looked for, in order: the scripts directory of the running
    interpreter's installation (where its wheels put them), the directory of the interpreter itself,
    then PATH. So `VENV/bin/rocke` finds VENV's emitters without the venv being activated."""
    dirs = [Path(sysconfig.get_path("scripts")), Path(sys.executable).parent]
    dirs += [Path(entry) for entry in os.environ.get("PATH", "").split(os.pathsep) if entry]
    unique: list[Path] = []
    for directory in dirs:
        if directory not in unique:
            unique.append(directory)
    return unique


def find_native_emitter(name: str) -> Path:
    """The native emitter executable `name`, from :func:`emitter_search_dirs`; FrameError if absent."""
    dirs = emitter_search_dirs()
    for directory in dirs:
        found = shutil.which(name, path=str(directory))
        if found is not None:
            return Path(found)
    raise FrameError(f"native emitter '{name}' not found in {', '.join(str(d) for d in dirs[:2])} or on PATH")


def native_command(family: Family, flavors: tuple[str, ...] = FLAVORS, configs: Path | None = None) -> list[str]:
    """The command line that runs the family's native emitter over its whole config file (or over
    the config file `configs`, in the same format)."""
    exe = find_native_emitter(family.native_emitter)
    path = config_path(family) if configs is None else configs
    return [str(exe), "--family", family.name, "--configs", str(path), "--flavors", ",".join(flavors)]


def emit_native(family: Family, flavors: tuple[str, ...] = FLAVORS, timeout: float = 600.0,
                configs: Path | None = None) -> list[Emission]:
    """Run the family's native emitter over its whole config file (or over `configs`); one Emission
    per config, in order."""
    proc = subprocess.run(native_command(family, flavors, configs), capture_output=True, timeout=timeout)
    if proc.returncode != 0:
        raise FrameError(f"{family.native_emitter} exited {proc.returncode}: "
                         f"{proc.stderr.decode(errors='replace').strip()[-400:]}")
    emissions: list[Emission] = []
    current: dict[str, str] = {}
    for record in read_records(proc.stdout):
        if record.index != len(emissions):
            raise FrameError(f"record for config {record.index} arrived while config {len(emissions)} was open")
        if record.kind == "refusal":
            emissions.append(Emission(refusal=record.payload))
        elif record.kind == "ir" or record.kind.startswith("ll:"):
            current[record.kind] = record.payload
            if all(f"ll:{f}" in current for f in flavors) and "ir" in current:
                emissions.append(Emission(ir=current["ir"], ll={f: current[f"ll:{f}"] for f in flavors}))
                current = {}
        else:
            raise FrameError(f"unknown record kind '{record.kind}'")
    if current:
        raise FrameError(f"config {len(emissions)} is incomplete: has only {', '.join(sorted(current))}")
    return emissions
