"""Where the families' numeric checks launch their kernels: the simulator, unless a host has
chosen another launcher for the duration of a `launches_on` block (`rocke run` chooses a GPU:
rocke.runtime.device.RuntimeDevice.run).

Every numeric check calls `run` here with rocke.sim.run's arguments (numpy arrays bound in place,
results in the caller's arrays), so the same inputs, references and tolerances serve the
simulator and the hardware.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from rocke.sim import run as sim_run

Launcher = Callable[..., Any]

_LAUNCHER: ContextVar[Launcher | None] = ContextVar("rocke_launcher", default=None)


def run(kernel: Any, **kwargs: Any) -> Any:
    """rocke.sim.run, or the launcher of the enclosing `launches_on` block."""
    launcher = _LAUNCHER.get()
    return sim_run(kernel, **kwargs) if launcher is None else launcher(kernel, **kwargs)


def set_launcher(launcher: Launcher | None) -> None:
    """From now on in this thread's context, `run` calls `launcher` (None: the simulator again); the
    GPU lane's pytest plugin sets it for a whole test session."""
    _LAUNCHER.set(launcher)


@contextmanager
def launches_on(launcher: Launcher) -> Iterator[None]:
    """Within the block, `run` calls `launcher` (same arguments as rocke.sim.run)."""
    token = _LAUNCHER.set(launcher)
    try:
        yield
    finally:
        _LAUNCHER.reset(token)
