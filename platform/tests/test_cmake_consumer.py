"""A C++ consumer finds the installed platform with find_package(rocke CONFIG) and links rocke::core."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rocke

CONSUMER_CMAKE = """\
cmake_minimum_required(VERSION 3.24)
project(consumer LANGUAGES CXX)
find_package(rocke {version} EXACT CONFIG REQUIRED)
add_executable(consumer main.cpp)
target_link_libraries(consumer PRIVATE rocke::core)
"""
CONSUMER_MAIN = """\
#include <cstdio>
#include "rocke/version.hpp"
int main() { std::printf("%s\\n", rocke::version().c_str()); return 0; }
"""


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} not found; install it with `pip install {name}`")
    return found


def test_consumer_builds_and_runs_against_installed_core(tmp_path: Path):
    (tmp_path / "CMakeLists.txt").write_text(CONSUMER_CMAKE.format(version=rocke.__version__))
    (tmp_path / "main.cpp").write_text(CONSUMER_MAIN)
    build = tmp_path / "build"
    subprocess.run([_tool("cmake"), "-S", str(tmp_path), "-B", str(build), "-G", "Ninja",
                    f"-DCMAKE_MAKE_PROGRAM={_tool('ninja')}", f"-Drocke_DIR={rocke.cmake_dir()}"],
                   check=True, capture_output=True)
    subprocess.run([_tool("cmake"), "--build", str(build)], check=True, capture_output=True)
    out = subprocess.run([str(build / "consumer")], check=True, capture_output=True, text=True)
    assert out.stdout.strip() == rocke.__version__
