"""Library's wheel build hook: platform's one CMake hook (``rocke/buildhook.py``), taken from the
platform installed in the environment this wheel is built for, and pointed at that platform's
CMake package (``-Drocke_DIR``).

``pip install ./library`` builds in an isolated environment holding only the build requirements,
where the installed platform cannot be imported (and no index has it). The interpreter running
the build is the target environment's own, so when ``import rocke`` fails here it is asked, with
pip's isolation variables ignored (``-E``), where its ``rocke`` lives. No installed platform: a
one-line error saying to install it first.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

_QUERY = (
    "import json, pathlib, rocke; "
    "print(json.dumps({'version': rocke.__version__, 'package': str(pathlib.Path(rocke.__file__).parent), "
    "'cmake_dir': str(rocke.cmake_dir())}))"
)


def installed_platform() -> dict[str, str]:
    """version, package directory and CMake dir of the rocke platform the wheel is built against."""
    try:
        import rocke  # a build without isolation: the platform is importable here
    except ImportError:
        proc = subprocess.run([sys.executable, "-E", "-c", _QUERY], capture_output=True, text=True)
        if proc.returncode != 0:
            error = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            raise RuntimeError(f"rocke-library builds against the installed rocke platform, which {sys.executable} "
                               f"does not have ({error}): run `pip install ./platform` first") from None
        return json.loads(proc.stdout)
    return {"version": rocke.__version__, "package": str(Path(rocke.__file__).parent),
            "cmake_dir": str(rocke.cmake_dir())}


def _platform_hook_module(package: str) -> Any:
    path = Path(package) / "buildhook.py"
    spec = importlib.util.spec_from_file_location("rocke_platform_buildhook", path)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"rocke-library: cannot load platform's build hook {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def get_build_hook() -> type:
    """hatchling's entry point of a custom hook file: the hook class to instantiate."""
    platform = installed_platform()
    base = _platform_hook_module(platform["package"]).CMakeBuildHook
    print(f"rocke-library: building against rocke {platform['version']} at {platform['package']}", flush=True)

    class LibraryBuildHook(base):  # type: ignore[misc, valid-type]
        def cmake_args(self) -> list[str]:
            return [f"-Drocke_DIR={platform['cmake_dir']}", *super().cmake_args()]

    return LibraryBuildHook
