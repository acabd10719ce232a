"""rocke_library_engine.build_family against the Python families it twins, for every string
argument: the same IR, or the same exception type with the same text (NUL bytes, lone
surrogates, non-ASCII, very long strings, bytes for a str)."""

from __future__ import annotations

from typing import Any

import pytest
import rocke_library_engine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rocke.families import discover_families, get_family
from rocke.families.configs import family_configs
from rocke.gates.string_fuzz import outcome, variants
from rocke.ir import print_kernel

LIBRARY = [f for f in discover_families() if f.owner != "rocke" and f.spec is not None]
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _python(name: Any, kv: Any, arch: Any) -> str:
    family = get_family(name)
    return print_kernel(family.build(family.spec.from_kv(kv), arch))


def _valid(family) -> tuple[str, str, str]:
    config = next(c for c in family_configs(family) if not c.refuse)
    return family.name, config.kv, config.arch


def test_library_families_exist():
    assert LIBRARY, "no library family registered"


@pytest.mark.parametrize("index", [0, 1, 2])
@pytest.mark.parametrize("family", LIBRARY, ids=lambda f: f.name)
@SETTINGS
@given(data=st.data())
def test_build_family_string_arguments_agree(family, index, data):
    args = list(_valid(family))
    args[index] = data.draw(variants(args[index]))
    assert outcome(rocke_library_engine.build_family, *args) == outcome(_python, *args), repr(args)[:300]


@pytest.mark.parametrize("index", [0, 1, 2])
@pytest.mark.parametrize("family", LIBRARY, ids=lambda f: f.name)
def test_build_family_bytes_arguments_agree(family, index):
    args: list[Any] = list(_valid(family))
    args[index] = args[index].encode()
    assert outcome(rocke_library_engine.build_family, *args) == outcome(_python, *args)


def test_the_native_emitter_names_a_directory(tmp_path):
    """rocke-library-emit reads inputs as rocke lower does: a directory is not empty text."""
    import shutil
    import subprocess
    import sysconfig
    from pathlib import Path

    exe = shutil.which("rocke-library-emit") or str(Path(sysconfig.get_path("scripts")) / "rocke-library-emit")
    out = subprocess.run([exe, "--arch", "gfx942", "--flavor", "llvm22", str(tmp_path)], capture_output=True)
    assert out.returncode == 1
    assert out.stderr.decode() == f"rocke-library-emit: error: cannot read {tmp_path}: Is a directory\n"
