"""Layering: lint-imports holds on the real tree and fails on planted back-edges."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("lint-imports")
    if exe is None:
        pytest.fail("lint-imports not installed (pip install import-linter)")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root / "platform/src"), str(root / "library/src")]))
    return subprocess.run([exe, "--no-cache"], cwd=root, env=env, capture_output=True, text=True)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", "data", "*.toml", "*.json")
    for pkg in ["platform/src/rocke", "library/src/rocke_library"]:
        shutil.copytree(ROOT / pkg, tmp_path / pkg, ignore=ignore)
    shutil.copy(ROOT / ".importlinter", tmp_path / ".importlinter")
    return tmp_path


def _plant(path: Path, line: str) -> None:
    path.write_text(path.read_text() + f"\n{line}\n")


def test_copy_is_clean(tree: Path):
    result = _lint_imports(tree)
    assert result.returncode == 0, result.stdout + result.stderr


def test_platform_importing_library_fails(tree: Path):
    _plant(tree / "platform/src/rocke/ir/__init__.py", "import rocke_library  # planted back-edge")
    result = _lint_imports(tree)
    assert result.returncode != 0
    assert "Platform never imports library BROKEN" in result.stdout


def test_lower_layer_importing_higher_layer_fails(tree: Path):
    _plant(tree / "platform/src/rocke/ir/__init__.py", "import rocke.cli  # planted layer violation")
    result = _lint_imports(tree)
    assert result.returncode != 0
    assert "Platform layers (lowest last) BROKEN" in result.stdout


def test_conv_importing_attention_fails(tree: Path):
    _plant(tree / "library/src/rocke_library/kernels/conv/__init__.py", "import rocke_library.kernels.attention")
    result = _lint_imports(tree)
    assert result.returncode != 0
    assert "Convolution and attention are independent BROKEN" in result.stdout


def test_no_platform_file_names_the_library_package():
    out = subprocess.run(["git", "ls-files", "platform"], cwd=ROOT, capture_output=True, text=True, check=True)
    files = [ROOT / f for f in out.stdout.splitlines() if (ROOT / f).is_file()]
    assert files, "git ls-files found no platform files"
    offenders = [str(f.relative_to(ROOT)) for f in files if b"rocke_library" in f.read_bytes()]
    assert offenders == []
