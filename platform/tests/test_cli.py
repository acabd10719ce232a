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
