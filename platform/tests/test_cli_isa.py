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


def test_isa_of_an_sm_90_config_reports_ptxas_figures():
    """sm_90: the PTX through ptxas; registers, shared memory, spills and the CUDA occupancy."""
    from rocke.isa import find_ptxas

    if find_ptxas() is None:
        pytest.skip("ptxas not found: pip install nvidia-cuda-nvcc-cu12")
    out = _rocke("isa", "gemm", "--spec", "a_dtype=f16 a_layout=row b_dtype=f16 b_layout=row bias=0 bk=32 bm=64 "
                 "bn=64 c_dtype=f32 double_buffer=0 lds_pad=0 op_id=mma_sync_f32_16x8x16_f16 wm=2 wn=2",
                 "--arch", "sm_90", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["arch"] == "sm_90" and data["registers"] > 0 and data["shared_bytes"] == 8192
    assert data["spill_store_bytes"] == 0 and data["occupancy"] >= 1
    text = _rocke("isa", "gemm", "--spec", "a_dtype=f16 a_layout=row b_dtype=f16 b_layout=row bias=0 bk=32 bm=64 "
                  "bn=64 c_dtype=f32 double_buffer=0 lds_pad=0 op_id=mma_sync_f32_16x8x16_f16 wm=2 wn=2",
                  "--arch", "sm_90", "--asm")
    assert text.returncode == 0 and "mma.sync.aligned.m16n8k16" in text.stdout and "(ptxas)" in text.stdout
