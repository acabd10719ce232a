"""Errors of the runtime: what a host sees when it cannot launch, or a launch goes wrong."""

from __future__ import annotations


class RuntimeUnavailableError(Exception):
    """Nothing to launch on: the vendor's Python bindings, its driver or a GPU of the arch is
    missing. The message is one line that says which, and what to install."""


class NotWrittenError(RuntimeUnavailableError, NotImplementedError):
    """A backend or toolchain rocKE does not have yet (the HIP backend; a code-object toolchain
    for an arch); a NotImplementedError too."""


class DeviceError(RuntimeError):
    """A driver call failed; the message names the call and the driver's error."""


class PackError(ValueError):
    """A kernel argument that cannot be packed: names the argument, its type and what is allowed."""


class CacheError(ValueError):
    """A bad cache setting (directory, size bound)."""
