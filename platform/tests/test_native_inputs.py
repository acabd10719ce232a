"""The native emitter reads its inputs as `rocke lower` does (rocke.ir.source and its C++ twin):
directories, the size limit, stdin, and memory bounded by the input while parsing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from rocke.ir import print_kernel
from rocke.ir.adversarial import adversarial_inputs
from rocke.ir.samples import sample_kernels
from rocke.ir.source import InputError, read_source


def _emitter() -> str:
    found = shutil.which("rocke-emit") or str(Path(sysconfig.get_path("scripts")) / "rocke-emit")
    if not Path(found).is_file():
        pytest.fail("rocke-emit is not installed next to this Python (install the rocke wheel)")
    return found


def _emit(*args: str, stdin: bytes | None = None, env: dict[str, str] | None = None):
    return subprocess.run([_emitter(), "--arch", "gfx942", "--flavor", "llvm22", *args], input=stdin,
                          capture_output=True, env={**os.environ, **(env or {})}, timeout=300)


def _python_error(path: str, env: dict[str, str] | None = None) -> str:
    old = dict(os.environ)
    os.environ.update(env or {})
    try:
        with pytest.raises(InputError) as info:
            read_source(path)
    finally:
        os.environ.clear()
        os.environ.update(old)
    return str(info.value)


def test_a_directory_is_refused_with_the_python_text(tmp_path):
    out = _emit(str(tmp_path))
    assert out.returncode == 1
    assert out.stderr.decode() == f"rocke-emit: error: {_python_error(str(tmp_path))}\n"
    assert "Is a directory" in out.stderr.decode()


@pytest.mark.parametrize("path", ["/dev/zero", "absent.rir"])
def test_limit_and_absent_files_match_python(path, tmp_path):
    env = {"ROCKE_MAX_INPUT_BYTES": "65536"}
    full = path if path.startswith("/") else str(tmp_path / path)
    out = _emit(full, env=env)
    assert out.returncode == 1
    assert out.stderr.decode() == f"rocke-emit: error: {_python_error(full, env)}\n"


def test_a_bad_limit_is_refused_alike(tmp_path):
    env = {"ROCKE_MAX_INPUT_BYTES": "-5"}
    out = _emit("/dev/null", env=env)
    assert out.returncode == 1
    assert out.stderr.decode() == f"rocke-emit: error: {_python_error('/dev/null', env)}\n"


def test_stdin_is_an_input():
    text = print_kernel(sample_kernels()["axpy"]).encode()
    out = _emit("-", stdin=text)
    assert out.returncode == 0 and b"define amdgpu_kernel void @axpy(" in out.stdout


_PEAK = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
"""


@pytest.mark.parametrize("name", ["open_braces", "commas", "blank_lines", "many_attributes", "many_operands"])
def test_cpp_parser_memory_stays_within_20x_the_input(name, tmp_path):
    """A 10 MB line of '{' once peaked at 561 MB in C++ (every token made before parsing)."""
    text = adversarial_inputs(8 << 20)[name]
    path = tmp_path / f"{name}.rir"
    path.write_text(text)
    baseline = int(subprocess.run([sys.executable, "-c", _PEAK, _emitter(), "--version"], capture_output=True,
                                  text=True, check=True).stdout)
    peak = int(subprocess.run([sys.executable, "-c", _PEAK, _emitter(), "--arch", "gfx942", "--flavor", "llvm22",
                               str(path)], capture_output=True, text=True, check=True).stdout)
    assert peak - baseline < 20 * len(text), f"{name}: {peak - baseline} bytes for {len(text)} bytes"


@pytest.mark.parametrize("pad", [0, 1, 4095, 4096, 4097, (1 << 20) + 4097, (2 << 20) + 1])
def test_a_regular_file_is_read_whole_at_every_size(pad, tmp_path):
    """The C++ reader sizes its first read from fstat, then probes for the end: a kernel followed by
    blank lines of any length (around the probe and chunk sizes) is read to its last byte."""
    text = print_kernel(sample_kernels()["axpy"]).encode()
    path = tmp_path / "axpy.rir"
    path.write_bytes(text + b"\n" * pad)
    out = _emit(str(path))
    assert out.returncode == 0, out.stderr.decode()
    assert b"define amdgpu_kernel void @axpy(" in out.stdout
    bad = tmp_path / "bad.rir"  # the last byte is read too: a fault there is reported at its line
    bad.write_bytes(text + b"\n" * pad + b"%")
    out = _emit(str(bad))
    line = text.count(b"\n") + pad + 1
    assert out.returncode == 0 and f"line {line}, col 1: expected digits after '%'".encode() in out.stdout


@pytest.mark.parametrize("over", [0, 1, 4096])
def test_a_regular_file_at_and_over_the_limit_matches_python(over, tmp_path):
    text = print_kernel(sample_kernels()["axpy"]).encode()
    path = tmp_path / "axpy.rir"
    path.write_bytes(text + b"\n" * 100)
    env = {"ROCKE_MAX_INPUT_BYTES": str(path.stat().st_size - over)}
    out = _emit(str(path), env=env)
    if over == 0:
        assert out.returncode == 0 and b"define amdgpu_kernel void @axpy(" in out.stdout
    else:
        assert out.returncode == 1
        assert out.stderr.decode() == f"rocke-emit: error: {_python_error(str(path), env)}\n"
