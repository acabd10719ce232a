"""`rocke-library-emit --check-golden` from the installed wheel: every library family's configs
emitted and hashed in C++ and compared with its golden file read from the installed package (no
source tree, no Python engine); a planted flipped hash fails. Platform's families check through
the library's emitter too (it registers both)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

import rocke
import rocke_library
from rocke.families import get_family
from rocke.families.configs import config_path
from rocke.gates.golden import golden_path
from rocke_library.families import provide

EMITTER = "rocke-library-emit"
ROOT = Path(rocke_library.__file__).resolve().parent


def _emitter() -> str:
    found = shutil.which(EMITTER, path=sysconfig.get_path("scripts")) or shutil.which(EMITTER)
    if found is None:
        pytest.fail(f"{EMITTER} is not installed with this interpreter")
    return found


def _check(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([_emitter(), "--check-golden", *args], capture_output=True, text=True, env={}, timeout=600)


@pytest.mark.parametrize("family", [f.name for f in provide()])
def test_library_family_checks_clean(family: str) -> None:
    proc = _check("--family", family, "--root", str(ROOT))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith(f"{family}: golden ok (")


def test_platform_family_checks_through_the_library_emitter() -> None:
    proc = _check("--family", "gemm", "--root", str(Path(rocke.__file__).resolve().parent))
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_flipped_hash_fails(tmp_path: Path) -> None:
    family = provide()[0].name
    config = config_path(get_family(family))
    data = json.loads(golden_path(get_family(family)).read_bytes())
    key = sorted(data["configs"])[0]
    field = sorted(data["configs"][key])[0]
    data["configs"][key][field] = data["configs"][key][field][::-1]
    planted = tmp_path / f"{family}.golden.json"
    planted.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    proc = _check("--family", family, "--configs", str(config), "--golden", str(planted))
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[0] == f"{family}: changed output [{key}]: {field}"
