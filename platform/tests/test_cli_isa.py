"""`rocke isa` through the real LLVM 22: resources as text and JSON."""

import json
import subprocess
import sys

import pytest

from rocke.ir import print_kernel
from rocke.ir.samples import sample_kernels

pytestmark = pytest.mark.validity


def _rocke(*args):
    return subprocess.run([sys.executable, "-m", "rocke", *args], capture_output=True, text=True)


@pytest.mark.parametrize(("name", "arch"), [("gemm_mfma", "gfx942"), ("gemm_wmma", "gfx1100"), ("axpy", "gfx1201")])
def test_isa_reports_real_resources(tmp_path, name, arch):
    path = tmp_path / f"{name}.rir"
    path.write_text(print_kernel(sample_kernels()[name]))
    out = _rocke("isa", str(path), "--arch", arch, "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["arch"] == arch and data["kernel"] == name
    assert data["vgprs"] > 0 and data["sgprs"] > 0 and data["occupancy"] >= 1
    assert len(data["ll_sha256"]) == 64
    text = _rocke("isa", str(path), "--arch", arch, "--asm")
    assert text.returncode == 0 and "s_endpgm" in text.stdout and "occupancy" in text.stdout


def test_isa_of_a_family_config():
    out = _rocke("isa", "gemm", "--config", "0", "--arch", "gfx942", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["kernel"].startswith("gemm_") and data["agprs"] >= 0 and data["lds_bytes"] > 0


def test_isa_of_an_unknown_family_is_a_usage_error():
    out = _rocke("isa", "nosuch", "--config", "0", "--arch", "gfx942")
    assert out.returncode == 2 and "Traceback" not in out.stderr and "unknown family 'nosuch'" in out.stderr
