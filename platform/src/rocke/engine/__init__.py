"""rocke.engine: the switch between the Python engine and the C++ engine (``rocke_engine``)."""

from rocke.engine.native import EngineUnavailableError, native_engine

__all__ = ["EngineUnavailableError", "native_engine"]
