"""rocKE platform: kernel authoring stack for AMD GPUs.

Importing ``rocke`` is cheap: subpackages are imported on demand.
"""

from __future__ import annotations

from pathlib import Path

from rocke import sdk
from rocke._version import __version__

__all__ = ["__version__", "cmake_dir", "native_dir"]


def native_dir() -> Path:
    """Directory of the installed native SDK (headers, archive, CMake package)."""
    return sdk.native_dir(__file__)


def cmake_dir() -> Path:
    """Directory holding ``rockeConfig.cmake``, for ``-Drocke_DIR=``.

    Raises FileNotFoundError when rocke runs from a source tree without a build.
    """
    return sdk.cmake_dir(__file__, "rocke", dist="rocke", install="pip install ./platform")
