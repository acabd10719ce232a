"""rocKE library: convolution and attention kernel families and their dispatch."""

from __future__ import annotations

from pathlib import Path

__version__ = "0.1.0"

__all__ = ["__version__", "cmake_dir", "native_dir"]


def native_dir() -> Path:
    """Directory of the installed native SDK (headers, librocke_library.a, CMake package)."""
    return Path(__file__).resolve().parent / "_native"


def cmake_dir() -> Path:
    """Directory holding ``rocke_libraryConfig.cmake``, for ``-Drocke_library_DIR=``.

    ``find_package(rocke_library CONFIG)`` gives ``rocke_library::library``, which brings
    ``rocke::core`` (``python -m rocke --cmake-dir``) through ``find_dependency``.
    Raises FileNotFoundError when rocke_library runs from a source tree without a build.
    """
    path = native_dir() / "lib" / "cmake" / "rocke_library"
    if not (path / "rocke_libraryConfig.cmake").is_file():
        raise FileNotFoundError(
            f"rocke_library CMake package not found at {path}; install the rocke-library wheel (pip install ./library)"
        )
    return path
