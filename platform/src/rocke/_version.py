"""Single source of the rocKE version (read by hatchling, CMake and the library pin)."""

__version__ = "0.1.0"
