"""The one build hook of rocKE: hatchling drives CMake + Ninja (both from PyPI).

Platform loads this file by path (``[tool.hatch.build.targets.wheel.hooks.custom]``);
library's ``hatch_build.py`` loads this same file from the platform installed in the
environment it builds for (pip's isolated build environment cannot import it); other
projects that list ``rocke`` in their build requirements get it through the ``hatch``
entry point ``rocke-cmake``.  It configures, builds and installs the package's CMake
project into a staging directory whose layout mirrors site-packages, then hands every
staged file to the wheel.  A build directory whose CMake cache was made for another
source or build directory (a checkout copied after an in-tree build) is started afresh.

This module is self-contained on purpose: when platform itself is being built,
``rocke`` is not importable yet.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface
from hatchling.plugin import hookimpl


def _cmake_executable() -> str:
    try:
        import cmake  # the PyPI distribution ships the binary

        return str(Path(cmake.CMAKE_BIN_DIR) / "cmake")
    except ImportError:
        found = shutil.which("cmake")
        if not found:
            raise RuntimeError("rocke-cmake: CMake not found; install it with `pip install cmake`") from None
        return found


def _ninja_executable() -> str:
    try:
        import ninja

        return str(Path(ninja.BIN_DIR) / "ninja")
    except ImportError:
        found = shutil.which("ninja")
        if not found:
            raise RuntimeError("rocke-cmake: Ninja not found; install it with `pip install ninja`") from None
        return found


def _pybind11_cmake_dir() -> str:
    try:
        import pybind11
    except ImportError:
        raise RuntimeError("rocke-cmake: pybind11 not found; install it with `pip install pybind11`") from None
    return pybind11.get_cmake_dir()


def _cache_entry(cache: str, name: str) -> str | None:
    for line in cache.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.partition(":")[0] == name:
            return value
    return None


def stale_cache_reason(build_dir: Path, source_dir: Path) -> str | None:
    """Why the CMake cache in `build_dir` cannot be reused for `source_dir`, or None if it can.

    A checkout copied (or moved) after an in-tree build carries `build/cmake` along; its
    CMakeCache.txt still names the old source and build directories, and CMake refuses it.
    """
    cache_file = build_dir / "CMakeCache.txt"
    if not cache_file.is_file():
        return None
    cache = cache_file.read_text(errors="replace")
    for name, expected in (("CMAKE_HOME_DIRECTORY", source_dir), ("CMAKE_CACHEFILE_DIR", build_dir)):
        recorded = _cache_entry(cache, name)
        if recorded is None:
            return f"{cache_file} has no {name}"
        if Path(recorded).resolve() != expected.resolve():
            return f"{cache_file} was made for {name} {recorded}, not {expected}"
    return None


def prepare_build_dir(build_dir: Path, source_dir: Path) -> None:
    """Start `build_dir` afresh when its CMake cache was made for another source or build directory."""
    reason = stale_cache_reason(build_dir, source_dir)
    if reason is not None:
        print(f"rocke-cmake: {reason}; starting a fresh build in {build_dir}", flush=True)
        shutil.rmtree(build_dir)


def _run(cmd: list[str]) -> None:
    print("rocke-cmake: " + " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


class CMakeBuildHook(BuildHookInterface):
    """Build the package's native parts with CMake and ship the installed tree."""

    PLUGIN_NAME = "rocke-cmake"

    def cmake_args(self) -> list[str]:
        """Extra configure arguments: the hook's `cmake-args` option, then $ROCKE_CMAKE_ARGS."""
        return list(self.config.get("cmake-args", [])) + os.environ.get("ROCKE_CMAKE_ARGS", "").split()

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        build_dir = Path(os.environ.get("ROCKE_CMAKE_BUILD_DIR") or root / "build" / "cmake")
        prepare_build_dir(build_dir, root)
        stage = build_dir / "stage"
        shutil.rmtree(stage, ignore_errors=True)
        build_type = os.environ.get("ROCKE_CMAKE_BUILD_TYPE", "Release")
        configure = [
            _cmake_executable(),
            "-S", str(root),
            "-B", str(build_dir),
            "-G", "Ninja",
            f"-DCMAKE_MAKE_PROGRAM={_ninja_executable()}",
            f"-DCMAKE_BUILD_TYPE={build_type}",
            f"-DCMAKE_INSTALL_PREFIX={stage}",
            f"-DPython_EXECUTABLE={sys.executable}",
            f"-Dpybind11_DIR={_pybind11_cmake_dir()}",
        ]
        configure += self.cmake_args()
        _run(configure)
        jobs = os.environ.get("ROCKE_BUILD_JOBS", str(os.cpu_count() or 1))
        _run([_cmake_executable(), "--build", str(build_dir), "--parallel", jobs])
        _run([_cmake_executable(), "--install", str(build_dir)])

        scripts_dir = stage / "_scripts"
        for path in sorted(stage.rglob("*")):
            if not path.is_file():
                continue
            rel = path.relative_to(stage).as_posix()
            if path.parent == scripts_dir:
                # Native executables go on PATH next to the console scripts.
                build_data["shared_scripts"][str(path)] = path.name
            else:
                build_data["force_include"][str(path)] = rel
        build_data["pure_python"] = False
        build_data["infer_tag"] = True


@hookimpl
def hatch_register_build_hook() -> type[BuildHookInterface]:
    return CMakeBuildHook
