"""rocKE platform: kernel authoring stack for AMD GPUs.

Importing ``rocke`` is cheap: subpackages are imported on demand.
"""

from __future__ import annotations

from pathlib import Path

from rocke._version import __version__

__all__ = ["__version__", "cmake_dir", "native_dir"]


def native_dir() -> Path:
    """Directory of the installed native SDK (headers, archive, CMake package)."""
    return Path(__file__).resolve().parent / "_native"


def cmake_dir() -> Path:
    """Directory holding ``rockeConfig.cmake``, for ``-Drocke_DIR=``.

    Raises FileNotFoundError when rocke runs from a source tree without a build.
    """
    path = native_dir() / "lib" / "cmake" / "rocke"
    if not (path / "rockeConfig.cmake").is_file():
        raise FileNotFoundError(
            f"rocke CMake package not found at {path}; install the rocke wheel (pip install ./platform)"
        )
    return path
