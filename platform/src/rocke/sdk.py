"""Where an installed package's native SDK lives, and its ``python -m PACKAGE --cmake-dir``: one
implementation for platform (``rocke``) and every package built on it (a library package's own
``cmake_dir`` and ``__main__`` call these).

A package installs its SDK (headers, static archive, CMake config package) under
``<package>/_native`` inside its wheel; ``find_package(<package> CONFIG)`` reads
``<package>/_native/lib/cmake/<package>/<package>Config.cmake``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path


def native_dir(package_file: str) -> Path:
    """The native SDK directory of the package whose ``__init__.py`` is ``package_file``."""
    return Path(package_file).resolve().parent / "_native"


def cmake_dir(package_file: str, package: str, *, dist: str, install: str) -> Path:
    """The directory holding ``<package>Config.cmake``, for ``-D<package>_DIR=``.

    Raises FileNotFoundError, naming the wheel (``dist``) and the command that installs it, when the
    package runs from a source tree without a build.
    """
    path = native_dir(package_file) / "lib" / "cmake" / package
    if not (path / f"{package}Config.cmake").is_file():
        raise FileNotFoundError(f"{package} CMake package not found at {path}; install the {dist} wheel ({install})")
    return path


def print_cmake_dir(package: str, find: Callable[[], Path]) -> int:
    """``python -m <package> --cmake-dir``: print the CMake dir (exit 0), or one error line (exit 1)."""
    try:
        print(find())
    except FileNotFoundError as exc:
        print(f"{package}: {exc}", file=sys.stderr)
        return 1
    return 0
