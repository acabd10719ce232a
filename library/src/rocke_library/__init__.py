"""rocKE library: convolution and attention kernel families and their dispatch."""

from __future__ import annotations

from pathlib import Path

from rocke import sdk

__version__ = "0.1.0"

__all__ = ["__version__", "cmake_dir", "native_dir"]


def native_dir() -> Path:
    """Directory of the installed native SDK (headers, librocke_library.a, CMake package)."""
    return sdk.native_dir(__file__)


def cmake_dir() -> Path:
    """Directory holding ``rocke_libraryConfig.cmake``, for ``-Drocke_library_DIR=``.

    ``find_package(rocke_library CONFIG)`` gives ``rocke_library::library``, which brings
    ``rocke::core`` (``python -m rocke --cmake-dir``) through ``find_dependency``.
    Raises FileNotFoundError when rocke_library runs from a source tree without a build.
    """
    return sdk.cmake_dir(__file__, "rocke_library", dist="rocke-library", install="pip install ./library")
