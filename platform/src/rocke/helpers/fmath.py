"""f32 math on scalars or vectors: constants, widening/narrowing to storage, activations.

Activations are written with exp2 and rcp so they lower to single hardware instructions
(v_exp_f32, v_rcp_f32); the constants are binary64 literals rounded once to f32 by Builder.const.
"""

from __future__ import annotations

from rocke.ir import Builder, ScalarType, Value, f32

from .dtypes import vector_type

LOG2E = 1.4426950408889634  # log2(e)
GELU_CUBIC = 0.044715  # the cubic coefficient of the tanh approximation of GELU
GELU_EXP2_SCALE = -2.302208198144325  # -2 * log2(e) * sqrt(2 / pi)


def f32_const(b: Builder, value: float, lanes: int, *, name: str | None = None) -> Value:
    """An f32 constant, splat to `lanes` lanes when lanes > 1."""
    scalar = b.const(value, f32, name=name if lanes == 1 else None)
    return scalar if lanes == 1 else b.splat(scalar, lanes, name=name)


def to_f32(b: Builder, x: Value, elem: ScalarType, lanes: int, *, name: str | None = None) -> Value:
    """Widen f16/bf16 (scalar or vector) to f32; f32 passes through."""
    if elem == f32:
        return x
    return b.extf(x, vector_type(f32, lanes), name=name)


def from_f32(b: Builder, x: Value, elem: ScalarType, lanes: int, *, name: str | None = None) -> Value:
    """Round f32 (scalar or vector) to the storage type, nearest even; f32 passes through."""
    if elem == f32:
        return x
    return b.truncf(x, vector_type(elem, lanes), name=name)


def sigmoid_of_scaled(b: Builder, u: Value, scale: float, lanes: int) -> Value:
    """1 / (1 + 2^(u * scale)): the logistic sigmoid of -u * scale * ln 2."""
    e = b.exp2(b.mul(u, f32_const(b, scale, lanes)))
    return b.rcp(b.add(e, f32_const(b, 1.0, lanes)))


def silu(b: Builder, x: Value, lanes: int, *, name: str | None = None) -> Value:
    """x * sigmoid(x) = x / (1 + exp(-x))."""
    return b.mul(x, sigmoid_of_scaled(b, x, -LOG2E, lanes), name=name)


def gelu_tanh(b: Builder, x: Value, lanes: int, *, name: str | None = None) -> Value:
    """0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), computed as x * sigmoid(2 sqrt(2/pi) (...))."""
    x2 = b.mul(x, x)
    poly = b.fma(x2, f32_const(b, GELU_CUBIC, lanes), f32_const(b, 1.0, lanes))
    return b.mul(x, sigmoid_of_scaled(b, b.mul(x, poly), GELU_EXP2_SCALE, lanes), name=name)


def relu(b: Builder, x: Value, lanes: int, *, name: str | None = None) -> Value:
    """max(x, 0) (a NaN input gives 0, IEEE maxNum)."""
    return b.maxf(x, f32_const(b, 0.0, lanes), name=name)
