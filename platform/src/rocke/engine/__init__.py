"""rocke.engine: the switch between the Python engine and the C++ engine (``rocke_engine``)."""

from rocke.engine.native import EngineUnavailableError, native_engine
from rocke.engine.switch import (
    ENGINES,
    EngineMismatchError,
    default_engine,
    first_difference,
    lower,
    lower_text,
)

__all__ = [
    "ENGINES",
    "EngineMismatchError",
    "EngineUnavailableError",
    "default_engine",
    "first_difference",
    "lower",
    "lower_text",
    "native_engine",
]
