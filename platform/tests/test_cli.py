"""The `rocke` command: useful verbs, one-line errors with exit status 2."""

import subprocess
import sys


def _rocke(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rocke", *args], capture_output=True, text=True)


def test_version_reports_both_engines():
    out = _rocke("version")
    assert out.returncode == 0, out.stderr
    assert "python engine" in out.stdout and "c++ engine" in out.stdout


def test_families_lists_a_count():
    out = _rocke("families")
    assert out.returncode == 0, out.stderr
    assert out.stdout.rstrip().endswith("families")


def test_bad_arguments_exit_2_without_traceback():
    out = _rocke("no-such-verb")
    assert out.returncode == 2
    assert "Traceback" not in out.stderr


def _sample_file(tmp_path, name="axpy"):
    from rocke.ir import print_kernel
    from rocke.ir.samples import sample_kernels

    path = tmp_path / f"{name}.rir"
    path.write_text(print_kernel(sample_kernels()[name]))
    return path


def test_lower_prints_llvm_ir(tmp_path):
    out = _rocke("lower", str(_sample_file(tmp_path)), "--arch", "gfx942", "--flavor", "llvm22")
    assert out.returncode == 0, out.stderr
    assert 'target triple = "amdgcn-amd-amdhsa"' in out.stdout
    assert "define amdgpu_kernel void @axpy(" in out.stdout


def test_lower_unknown_arch_is_a_one_line_usage_error(tmp_path):
    out = _rocke("lower", str(_sample_file(tmp_path)), "--arch", "gfx90a", "--flavor", "llvm22")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "gfx942" in out.stderr  # the allowed values are listed


def test_lower_malformed_file_names_line_and_column(tmp_path):
    bad = tmp_path / "bad.rir"
    bad.write_text("rocke.ir/9\n")
    out = _rocke("lower", str(bad), "--arch", "gfx942", "--flavor", "llvm22")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "line 1, col" in out.stderr and out.stderr.count("\n") == 1


def test_lower_mfma_kernel_on_rdna_is_refused_before_llvm(tmp_path):
    out = _rocke("lower", str(_sample_file(tmp_path, "gemm_mfma")), "--arch", "gfx1100", "--flavor", "llvm22")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "gfx1100" in out.stderr


def test_sim_runs_a_family_config_against_its_reference():
    out = _rocke("sim", "elementwise", "--spec", "block=64 dtype=f16 op=silu vec=4", "--arch", "gfx1100", "--seed", "3")
    assert out.returncode == 0, out.stderr
    assert "PASS" in out.stdout and "max rel error" in out.stdout


def test_sim_config_for_another_arch_is_a_usage_error():
    out = _rocke("sim", "gemm", "--config", "0", "--arch", "gfx1201")
    assert out.returncode == 2 and "Traceback" not in out.stderr
