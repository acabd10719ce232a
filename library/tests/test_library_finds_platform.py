"""library/hatch_build.py finds the platform it builds against: in process when rocke imports, else
by asking the target interpreter (what `pip install ./library` needs under build isolation), and
says to install platform first when the target environment has none."""

from __future__ import annotations

import json
import subprocess
import sys
import venv
from pathlib import Path

import rocke

LIBRARY = Path(__file__).resolve().parents[1]
ISOLATED = """\
import json, sys
sys.path = [p for p in sys.path if "site-packages" not in p]  # what pip's build isolation does
sys.path.insert(0, {library!r})
import hatch_build
try:
    import rocke
except ImportError:
    pass
else:
    raise SystemExit("rocke is still importable")
print(json.dumps(hatch_build.installed_platform()))
"""


def _run(python: str, code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([python, "-c", code], capture_output=True, text=True, cwd=LIBRARY)


def test_platform_not_importable_in_the_build_is_found_through_the_interpreter():
    out = _run(sys.executable, ISOLATED.format(library=str(LIBRARY)))
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout)
    assert found == {"version": rocke.__version__, "package": str(Path(rocke.__file__).parent),
                     "cmake_dir": str(rocke.cmake_dir())}


def test_no_installed_platform_says_to_install_it_first(tmp_path: Path):
    bare = tmp_path / "bare"
    venv.create(bare, with_pip=False)
    python = str(bare / "bin" / "python")
    out = _run(python, ISOLATED.format(library=str(LIBRARY)))
    assert out.returncode != 0
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith(f"RuntimeError: rocke-library builds against the installed rocke platform, which {python}")
    assert last.endswith("(ModuleNotFoundError: No module named 'rocke'): run `pip install ./platform` first")


def test_the_hook_is_platforms_with_the_installed_cmake_package():
    sys.path.insert(0, str(LIBRARY))
    try:
        import hatch_build
    finally:
        sys.path.remove(str(LIBRARY))
    hook = hatch_build.get_build_hook()
    assert hook.__mro__[1].__name__ == "CMakeBuildHook"
    assert Path(hook.__mro__[1].initialize.__code__.co_filename) == Path(rocke.__file__).parent / "buildhook.py"
    instance = hook(str(LIBRARY), {"cmake-args": ["-DX=1"]}, None, None, str(LIBRARY / "dist"), "wheel")
    assert instance.cmake_args()[:2] == [f"-Drocke_DIR={rocke.cmake_dir()}", "-DX=1"]
