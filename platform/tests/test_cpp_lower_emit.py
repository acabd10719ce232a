"""The native emitter `rocke-emit` (no Python inside) writes what the Python engine writes.

File mode: every sample kernel and the op-coverage corpus of test_lower_llvm.py, as rocke.ir/1
files, on every arch and flavor (and an unknown arch and flavor): one record per file, the .ll
text `rocke.lower.lower` returns or the refusal text it raises, framed as rocke.gates.frames reads
it. Family mode: the families whose C++ builders are registered, config by config against the
Python emitter; the command line's refusals of bad arguments. Runs against the installed wheel.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig
from pathlib import Path
from typing import Any

import pytest
from test_lower_llvm import corpus

from rocke.arch import ARCH_NAMES
from rocke.engine import native_engine
from rocke.families import discover_families, get_family
from rocke.families.configs import family_configs
from rocke.families.platform_families import provide
from rocke.gates.emitters import emit_native, emit_python
from rocke.gates.frames import read_records
from rocke.ir import KernelDef, print_kernel
from rocke.ir.samples import sample_kernels
from rocke.lower import lower

pytestmark = pytest.mark.parity

FLAVORS = ("llvm20", "llvm22")


def _emitter() -> str:
    found = shutil.which("rocke-emit") or str(Path(sysconfig.get_path("scripts")) / "rocke-emit")
    if not Path(found).is_file():
        pytest.fail("rocke-emit is not installed next to this Python (install the rocke wheel)")
    return found


def run_emit(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([_emitter(), *args], capture_output=True, timeout=300, check=False)


def _kernels() -> dict[str, KernelDef]:
    return {**sample_kernels(), **corpus()}


@pytest.fixture(scope="module")
def kernel_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("ir")
    files = {}
    for name, kernel in _kernels().items():
        files[name] = folder / f"{name}.ir"
        files[name].write_bytes(print_kernel(kernel).encode("ascii"))
    return files


def python_record(kernel: KernelDef, arch: str, flavor: str) -> tuple[str, str]:
    try:
        return f"ll:{flavor}", lower(kernel, arch=arch, flavor=flavor)
    except (ValueError, KeyError) as exc:
        return "refusal", str(exc)


@pytest.mark.parametrize(("arch", "flavor"), [(a, f) for a in ARCH_NAMES for f in FLAVORS]
                         + [("gfx90a", "llvm22"), ("gfx942", "llvm99")])
def test_file_mode_matches_the_python_engine(kernel_files: dict[str, Path], arch: str, flavor: str) -> None:
    names = list(kernel_files)
    proc = run_emit("--arch", arch, "--flavor", flavor, *(str(kernel_files[n]) for n in names))
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stderr == b""
    records = read_records(proc.stdout)
    assert [r.index for r in records] == list(range(len(names)))
    kernels = _kernels()
    for record, name in zip(records, names, strict=True):
        assert (record.kind, record.payload) == python_record(kernels[name], arch, flavor), name


def test_file_mode_refuses_malformed_text(tmp_path: Path) -> None:
    good = tmp_path / "good.ir"
    good.write_text(print_kernel(sample_kernels()["axpy"]))
    bad = tmp_path / "bad.ir"
    bad.write_text("rocke.ir/2\n")
    records = read_records(run_emit("--arch", "gfx942", "--flavor", "llvm22", str(good), str(bad)).stdout)
    assert [r.kind for r in records] == ["ll:llvm22", "refusal"]
    assert records[1].payload.startswith("line 1, col 1: ")


def test_the_engines_agree_on_the_text_they_lower(kernel_files: dict[str, Path]) -> None:
    engine = native_engine()
    proc = run_emit("--arch", "gfx1201", "--flavor", "llvm20", str(kernel_files["buffer_copy"]))
    (record,) = read_records(proc.stdout)
    assert record.payload == engine.lower(kernel_files["buffer_copy"].read_text(), "gfx1201", "llvm20")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "nothing to do"),
        (("--bogus",), "unknown option '--bogus'"),
        (("--arch", "gfx942"), "--flavor is required with --arch"),
        (("--arch", "gfx942", "--flavor", "llvm22"), "--arch mode needs at least one FILE"),
        (("--family", "elementwise", "--configs", "x.cfg"), "--flavors is required with --family"),
        (("--family", "elementwise", "--configs", "x.cfg", "--flavors", "llvm21"),
         "--flavors: unknown flavor 'llvm21'; known flavors: llvm20, llvm22"),
        (("--arch", "gfx942", "--family", "gemm"), "--arch/--flavor and --family/--configs/--flavors do not mix"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(args: tuple[str, ...], message: str) -> None:
    proc = run_emit(*args)
    assert proc.returncode == 2 and proc.stdout == b""
    assert proc.stderr.decode() == f"rocke-emit: error: {message} (rocke-emit --help shows the usage)\n"


def test_unknown_family_and_unreadable_files(tmp_path: Path) -> None:
    known = native_engine().family_names()
    proc = run_emit("--family", "conv", "--configs", "x.cfg", "--flavors", "llvm22")
    assert proc.returncode == 2
    listed = ", ".join(known) or "none"
    assert proc.stderr.decode().startswith(f"rocke-emit: error: unknown family 'conv'; known: {listed} (")
    assert run_emit("--list-families").stdout.decode().split() == list(known)
    missing = run_emit("--arch", "gfx942", "--flavor", "llvm22", str(tmp_path / "missing.ir"))
    assert missing.returncode == 1 and missing.stdout == b""
    assert missing.stderr.decode().count("\n") == 1


def test_build_family_refuses_an_unknown_family() -> None:
    engine = native_engine()
    with pytest.raises(KeyError) as info:
        engine.build_family("conv", "a=1", "gfx942")
    assert info.value.args[0] == f"unknown family 'conv'; known: {', '.join(engine.family_names()) or 'none'}"
    assert not isinstance(info.value, ValueError)  # no refusal: the parity gate reports it as a crash


def test_get_family_for_one_engine_names_what_that_engine_knows() -> None:
    """rocke_engine builds platform's families only, whatever else is installed: get_family with
    its cpp_engine refuses what it refuses, with its message."""
    engine = native_engine()
    with pytest.raises(KeyError) as python:
        get_family("conv", cpp_engine="rocke_engine")
    with pytest.raises(KeyError) as cpp:
        engine.build_family("conv", "a=1", "gfx942")
    assert python.value.args == cpp.value.args
    assert get_family("gemm", cpp_engine="rocke_engine").name == "gemm"
    others = [f.name for f in discover_families() if f.cpp_engine != "rocke_engine"]
    for name in others:  # a library family, when the library is installed
        with pytest.raises(KeyError):
            get_family(name, cpp_engine="rocke_engine")
        assert get_family(name).name == name


# ------------------------------------------------------------------ families with C++ builders
def _registered() -> list[Any]:
    names = native_engine().family_names()
    return [family for family in provide() if family.name in names]


@pytest.mark.parametrize("family", [f.name for f in provide()])
def test_native_family_emission_matches_python(family: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", f"{Path(_emitter()).parent}:{os.environ.get('PATH', '')}")  # emit_native looks there
    found = {f.name: f for f in _registered()}
    if family not in found:
        pytest.fail(f"{family} has no C++ builder registered in rocke_engine")
    fam = found[family]
    configs = family_configs(fam)
    native = emit_native(fam, FLAVORS)
    assert len(native) == len(configs)
    for config, nat in zip(configs, native, strict=True):
        py = emit_python(fam, config, FLAVORS)
        assert (nat.ir, nat.ll, nat.refusal) == (py.ir, py.ll, py.refusal), config.key
