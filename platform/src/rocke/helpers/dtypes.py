"""Storage dtypes by name: their IR types, byte sizes and vector types."""

from __future__ import annotations

from rocke.ir import ScalarType, Type, scalar_type, vec

FLOAT_DTYPES = ("f16", "bf16", "f32")
_BYTES = {"f16": 2, "bf16": 2, "f32": 4}


def ir_type(dtype: str) -> ScalarType:
    """The IR scalar type of a dtype name (f16, bf16, f32, i32, ...)."""
    return scalar_type(dtype)


def elem_bytes(dtype: str) -> int:
    """Bytes of one element of a float storage dtype."""
    return _BYTES[dtype]


def vector_type(elem: ScalarType, lanes: int) -> Type:
    """The scalar itself for one lane, else vec<elem x lanes>."""
    return elem if lanes == 1 else vec(elem, lanes)
