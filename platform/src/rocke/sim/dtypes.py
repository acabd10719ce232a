"""How IR types are held in numpy: one array per value, lanes on axis 0.

A scalar value of type T is an array of shape (lanes,) with dtype numpy_dtype(T); a vector
vec<TxN> has shape (lanes, N). i1 is numpy bool; i8..i64 are the signed numpy integers (the
unsigned view is taken where an op reads its operands as unsigned); f16 is numpy float16, bf16 is
ml_dtypes.bfloat16 and f32 is numpy float32. Pointers and buffer resources are values.PtrVal and
values.RsrcVal.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from rocke.ir import ScalarType, Type, VecType

BF16 = np.dtype(ml_dtypes.bfloat16)

_SIGNED = {
    "i1": np.dtype(np.bool_),
    "i8": np.dtype(np.int8),
    "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
    "f16": np.dtype(np.float16),
    "bf16": BF16,
    "f32": np.dtype(np.float32),
}
_UNSIGNED = {
    "i1": np.dtype(np.uint8),
    "i8": np.dtype(np.uint8),
    "i16": np.dtype(np.uint16),
    "i32": np.dtype(np.uint32),
    "i64": np.dtype(np.uint64),
}
# Same-width integer dtype used to reinterpret float bits.
_BITS_DTYPE = {16: np.dtype(np.uint16), 32: np.dtype(np.uint32), 64: np.dtype(np.uint64)}


def scalar_of(ty: Type) -> ScalarType:
    """The element type of a scalar or vector type."""
    if isinstance(ty, VecType):
        return ty.elem
    assert isinstance(ty, ScalarType), ty
    return ty


def numpy_dtype(ty: Type) -> np.dtype:
    """The numpy dtype holding values (or vector elements) of ty."""
    return _SIGNED[scalar_of(ty).name]


def unsigned_dtype(ty: Type) -> np.dtype:
    """The unsigned integer dtype of an integer type's width (uint8 for i1)."""
    return _UNSIGNED[scalar_of(ty).name]


def bits_dtype(nbits: int) -> np.dtype:
    return _BITS_DTYPE[nbits]


def lane_shape(ty: Type, lanes: int) -> tuple[int, ...]:
    """Array shape of a value of type ty over `lanes` lanes."""
    return (lanes, ty.lanes) if isinstance(ty, VecType) else (lanes,)


def elem_bytes(ty: Type) -> int:
    """Bytes of one element (scalar or vector lane element)."""
    return max(1, scalar_of(ty).bits // 8)


def total_bytes(ty: Type) -> int:
    """Bytes of a whole scalar or vector value as stored in memory."""
    return elem_bytes(ty) * (ty.lanes if isinstance(ty, VecType) else 1)


def to_signed(x: np.ndarray, ty: Type) -> np.ndarray:
    """The signed value of an integer array (i1 true is -1)."""
    if scalar_of(ty).name == "i1":
        return -(x.astype(np.int8))
    return x


def to_unsigned(x: np.ndarray, ty: Type) -> np.ndarray:
    """The unsigned value of an integer array (same bits)."""
    if scalar_of(ty).name == "i1":
        return x.astype(np.uint8)
    return x.view(_UNSIGNED[scalar_of(ty).name])


def wrap_int(x: np.ndarray, ty: Type) -> np.ndarray:
    """Keep the low bits of an integer array as type ty (two's complement wrap-around)."""
    name = scalar_of(ty).name
    if name == "i1":
        return (x.astype(np.int64) & 1).astype(np.bool_)
    return x.astype(_SIGNED[name], copy=False)
