"""One version across the monorepo: platform, library, and library's pins on platform."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _version(path: Path) -> str:
    match = re.search(r'^__version__ = "([^"]+)"$', path.read_text(), re.MULTILINE)
    assert match, path
    return match.group(1)


def test_library_pins_the_same_platform_version():
    platform_version = _version(ROOT / "platform/src/rocke/_version.py")
    library_version = _version(ROOT / "library/src/rocke_library/__init__.py")
    assert library_version == platform_version
    project = tomllib.loads((ROOT / "library/pyproject.toml").read_text())
    assert f"rocke=={platform_version}" in project["project"]["dependencies"]
    # Not a build requirement: no index serves rocke; hatch_build.py uses the installed platform.
    assert not [r for r in project["build-system"]["requires"] if r.startswith("rocke")]


def test_library_reuses_the_platform_build_hook():
    platform = tomllib.loads((ROOT / "platform/pyproject.toml").read_text())
    library = tomllib.loads((ROOT / "library/pyproject.toml").read_text())
    assert platform["project"]["entry-points"]["hatch"] == {"rocke-cmake": "rocke.buildhook"}
    assert library["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"] == {"custom": {"path": "hatch_build.py"}}
    assert "hatch_build.py" in library["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
    assert not list((ROOT / "library").rglob("*hook*.py")), "library must not carry its own build hook"
    loader = (ROOT / "library/hatch_build.py").read_text()
    assert '"buildhook.py"' in loader and ".CMakeBuildHook" in loader  # platform's, loaded from the install
    assert "--build" not in loader and "ninja" not in loader.lower()  # it drives no build of its own
