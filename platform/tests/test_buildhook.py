"""The build hook starts afresh on a CMake cache made for another source or build directory (a
checkout copied after an in-tree build), and reuses a cache made for this one."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rocke import buildhook

PROJECT = "cmake_minimum_required(VERSION 3.24)\nproject(copied LANGUAGES NONE)\n"


def _cache(build: Path, home: Path, cachefile_dir: Path | None = None) -> None:
    build.mkdir(parents=True, exist_ok=True)
    (build / "CMakeCache.txt").write_text(
        "# This is the CMakeCache file.\n"
        f"CMAKE_CACHEFILE_DIR:INTERNAL={cachefile_dir or build}\n"
        f"CMAKE_HOME_DIRECTORY:INTERNAL={home}\n"
        "CMAKE_BUILD_TYPE:STRING=Release\n"
    )


def test_no_cache_and_own_cache_are_kept(tmp_path: Path):
    build = tmp_path / "src" / "build" / "cmake"
    assert buildhook.stale_cache_reason(build, tmp_path / "src") is None
    _cache(build, tmp_path / "src")
    assert buildhook.stale_cache_reason(build, tmp_path / "src") is None
    buildhook.prepare_build_dir(build, tmp_path / "src")
    assert (build / "CMakeCache.txt").is_file()


def test_cache_of_another_source_dir_is_stale(tmp_path: Path):
    build = tmp_path / "copy" / "build" / "cmake"
    _cache(build, tmp_path / "orig", cachefile_dir=build)
    reason = buildhook.stale_cache_reason(build, tmp_path / "copy")
    orig, copy = tmp_path / "orig", tmp_path / "copy"
    assert reason == f"{build}/CMakeCache.txt was made for CMAKE_HOME_DIRECTORY {orig}, not {copy}"


def test_cache_of_another_build_dir_is_stale(tmp_path: Path):
    build = tmp_path / "src" / "build2"
    _cache(build, tmp_path / "src", cachefile_dir=tmp_path / "src" / "build")
    assert "was made for CMAKE_CACHEFILE_DIR" in (buildhook.stale_cache_reason(build, tmp_path / "src") or "")


def test_cache_without_the_entries_is_stale(tmp_path: Path):
    build = tmp_path / "build"
    build.mkdir()
    (build / "CMakeCache.txt").write_text("# truncated\n")
    assert buildhook.stale_cache_reason(build, tmp_path) == f"{build}/CMakeCache.txt has no CMAKE_HOME_DIRECTORY"
    buildhook.prepare_build_dir(build, tmp_path)
    assert not build.exists()


def _cmake() -> str:
    found = shutil.which("cmake", path=str(Path(sys.executable).parent)) or shutil.which("cmake")
    if found is None:
        pytest.fail("cmake not found; install it with `pip install cmake`")
    return found


def _configure(source: Path) -> subprocess.CompletedProcess[str]:
    build = source / "build" / "cmake"
    return subprocess.run([_cmake(), "-S", str(source), "-B", str(build)], capture_output=True, text=True)


def test_copied_checkout_configures_after_a_fresh_start(tmp_path: Path):
    """Real CMake: a tree configured in place, then copied with its build dir, fails to configure
    as is (the negative control) and configures once prepare_build_dir has dropped the stale cache."""
    orig = tmp_path / "orig"
    orig.mkdir()
    (orig / "CMakeLists.txt").write_text(PROJECT)
    assert _configure(orig).returncode == 0
    copy = tmp_path / "copy"
    shutil.copytree(orig, copy)
    build = copy / "build" / "cmake"
    stale = _configure(copy)
    assert stale.returncode != 0 and "CMakeCache.txt" in stale.stderr
    assert (buildhook.stale_cache_reason(build, copy) or "").endswith(f"{orig}, not {copy}")
    buildhook.prepare_build_dir(build, copy)
    fresh = _configure(copy)
    assert fresh.returncode == 0, fresh.stderr
    assert buildhook.stale_cache_reason(build, copy) is None
    assert buildhook.stale_cache_reason(orig / "build" / "cmake", orig) is None
