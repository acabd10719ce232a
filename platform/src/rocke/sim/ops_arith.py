"""arith.*: integer ops wrap around (two's complement, low bits kept); float ops round to nearest
even in the operand type. Operands and results may be scalars or vectors (elementwise)."""

from __future__ import annotations

import numpy as np

from rocke.ir import Op

from .dtypes import numpy_dtype, scalar_of, to_signed, to_unsigned, unsigned_dtype, wrap_int
from .errors import UndefinedBehavior
from .machine import Machine, Mask, handler_table
from .rounding import F32, float_to_int, fma, int_to_float
from .values import select

HANDLERS, handles = handler_table()

_SIGN_BITS = {"f16": np.uint16(0x8000), "bf16": np.uint16(0x8000), "f32": np.uint32(0x80000000)}


def _is_float(op: Op) -> bool:
    return scalar_of(op.operands[0].type).is_float


def _float_op(fn, dtype: np.dtype, *xs: np.ndarray) -> np.ndarray:
    """fn computed in float32 and rounded once to dtype (exact for + - * / on f16 and bf16, since
    float32 carries more than twice their precision plus two bits)."""
    if dtype == F32:
        return fn(*xs)
    return fn(*(x.astype(F32) for x in xs)).astype(dtype)


def _from_unsigned(u: np.ndarray, ty) -> np.ndarray:
    if scalar_of(ty).name == "i1":
        return (u & 1).astype(np.bool_)
    return u.astype(unsigned_dtype(ty), copy=False).view(numpy_dtype(ty))


def _active_any(bad: np.ndarray, mask: Mask) -> np.ndarray:
    """Per lane: bad for any element, and the lane active."""
    if bad.ndim == 2:
        bad = bad.any(axis=1)
    return bad & mask.bits


# ---------------------------------------------------------------------- constants and + - *
@handles("arith.constant")
def _constant(m: Machine, op: Op, mask: Mask):
    ty = op.results[0].type
    return (np.full(m.lanes, op.attrs["value"], numpy_dtype(ty)),)


def _arith(int_fn, float_fn):
    def handler(m: Machine, op: Op, mask: Mask):
        a, b = m.args(op)
        ty = op.operands[0].type
        if scalar_of(ty).is_float:
            return (_float_op(float_fn, a.dtype, a, b),)
        return (wrap_int(int_fn(to_signed(a, ty), to_signed(b, ty)), ty),)

    return handler


handles("arith.add")(_arith(np.add, np.add))
handles("arith.sub")(_arith(np.subtract, np.subtract))
handles("arith.mul")(_arith(np.multiply, np.multiply))


# ---------------------------------------------------------------------- float-only binary ops
def _float_binary(fn):
    def handler(m: Machine, op: Op, mask: Mask):
        a, b = m.args(op)
        return (_float_op(fn, a.dtype, a, b),)

    return handler


handles("arith.divf")(_float_binary(np.divide))
handles("arith.remf")(_float_binary(np.fmod))  # exact: the remainder is representable
handles("arith.minf")(_float_binary(np.fmin))  # a NaN operand yields the other one
handles("arith.maxf")(_float_binary(np.fmax))


@handles("arith.negf")
def _negf(m: Machine, op: Op, mask: Mask):
    (x,) = m.args(op)
    sign = _SIGN_BITS[scalar_of(op.operands[0].type).name]
    return ((x.view(sign.dtype) ^ sign).view(x.dtype),)


@handles("arith.fma")
def _fma(m: Machine, op: Op, mask: Mask):
    a, b, c = m.args(op)
    return (fma(a, b, c, a.dtype),)


# ---------------------------------------------------------------------- integer division
def _signed_div(m: Machine, op: Op, mask: Mask) -> tuple[np.ndarray, np.ndarray]:
    """(quotient rounded toward zero, remainder with the sign of lhs) as signed arrays."""
    a, b = m.args(op)
    ty = op.operands[0].type
    sa, sb = to_signed(a, ty), to_signed(b, ty)
    bits = scalar_of(ty).bits
    zero = _active_any(sb == 0, mask)
    if zero.any():
        m.fail(UndefinedBehavior, op, "integer division by zero", int(np.argmax(zero)))
    overflow = _active_any((sa == -(1 << (bits - 1))) & (sb == -1), mask)
    if overflow.any():
        m.fail(UndefinedBehavior, op, "signed division overflow (MIN / -1)", int(np.argmax(overflow)))
    safe = np.where((sb == 0) | (sb == -1), 1, sb).astype(sb.dtype)
    flip = sb == -1  # divided by 1 instead; negate afterwards (MIN / -1 excluded above)
    q = np.floor_divide(sa, safe)
    r = sa - q * safe
    fix = (r != 0) & ((sa < 0) != (safe < 0))  # floor and truncation differ for negative quotients
    q = np.where(fix, q + 1, q)
    r = np.where(fix, r - safe, r)
    q = np.where(flip, -q, q)
    return q, r


@handles("arith.divs")
def _divs(m: Machine, op: Op, mask: Mask):
    q, _ = _signed_div(m, op, mask)
    return (wrap_int(q, op.results[0].type),)


@handles("arith.rems")
def _rems(m: Machine, op: Op, mask: Mask):
    _, r = _signed_div(m, op, mask)
    return (wrap_int(r, op.results[0].type),)


def _unsigned_div(m: Machine, op: Op, mask: Mask) -> tuple[np.ndarray, np.ndarray]:
    a, b = m.args(op)
    ty = op.operands[0].type
    ua, ub = to_unsigned(a, ty), to_unsigned(b, ty)
    zero = _active_any(ub == 0, mask)
    if zero.any():
        m.fail(UndefinedBehavior, op, "integer division by zero", int(np.argmax(zero)))
    safe = np.where(ub == 0, 1, ub).astype(ub.dtype)
    return np.floor_divide(ua, safe), np.remainder(ua, safe)


@handles("arith.divu")
def _divu(m: Machine, op: Op, mask: Mask):
    q, _ = _unsigned_div(m, op, mask)
    return (_from_unsigned(q, op.results[0].type),)


@handles("arith.remu")
def _remu(m: Machine, op: Op, mask: Mask):
    _, r = _unsigned_div(m, op, mask)
    return (_from_unsigned(r, op.results[0].type),)


# ---------------------------------------------------------------------- bitwise and shifts
def _bitwise(fn):
    def handler(m: Machine, op: Op, mask: Mask):
        a, b = m.args(op)
        return (fn(a, b),)

    return handler


handles("arith.and")(_bitwise(np.bitwise_and))
handles("arith.or")(_bitwise(np.bitwise_or))
handles("arith.xor")(_bitwise(np.bitwise_xor))


def _shift_amount(b: np.ndarray, ty) -> np.ndarray:
    """The shift amount modulo the bit width (an amount >= the width is poison in LLVM; the
    simulator defines it as the hardware's v_lshlrev_b32 does for 32 bits)."""
    bits = scalar_of(ty).bits
    return to_unsigned(b, ty) & (bits - 1)


@handles("arith.shl")
def _shl(m: Machine, op: Op, mask: Mask):
    a, b = m.args(op)
    ty = op.operands[0].type
    ua = to_unsigned(a, ty)
    return (_from_unsigned(np.left_shift(ua, _shift_amount(b, ty).astype(ua.dtype)), ty),)


@handles("arith.shru")
def _shru(m: Machine, op: Op, mask: Mask):
    a, b = m.args(op)
    ty = op.operands[0].type
    ua = to_unsigned(a, ty)
    return (_from_unsigned(np.right_shift(ua, _shift_amount(b, ty).astype(ua.dtype)), ty),)


@handles("arith.shrs")
def _shrs(m: Machine, op: Op, mask: Mask):
    a, b = m.args(op)
    ty = op.operands[0].type
    sa = to_signed(a, ty)
    return (wrap_int(np.right_shift(sa, _shift_amount(b, ty).astype(sa.dtype)), ty),)


# ---------------------------------------------------------------------- integer min / max
def _int_minmax(fn, unsigned: bool):
    def handler(m: Machine, op: Op, mask: Mask):
        a, b = m.args(op)
        ty = op.operands[0].type
        if unsigned:
            return (_from_unsigned(fn(to_unsigned(a, ty), to_unsigned(b, ty)), ty),)
        return (wrap_int(fn(to_signed(a, ty), to_signed(b, ty)), ty),)

    return handler


handles("arith.mins")(_int_minmax(np.minimum, False))
handles("arith.maxs")(_int_minmax(np.maximum, False))
handles("arith.minu")(_int_minmax(np.minimum, True))
handles("arith.maxu")(_int_minmax(np.maximum, True))


# ---------------------------------------------------------------------- comparisons and select
_CMPI_SIGNED = {"eq": np.equal, "ne": np.not_equal, "slt": np.less, "sle": np.less_equal, "sgt": np.greater,
                "sge": np.greater_equal}
_CMPI_UNSIGNED = {"ult": np.less, "ule": np.less_equal, "ugt": np.greater, "uge": np.greater_equal}


@handles("arith.cmpi")
def _cmpi(m: Machine, op: Op, mask: Mask):
    a, b = m.args(op)
    ty = op.operands[0].type
    pred = op.attrs["pred"]
    if pred in _CMPI_SIGNED:
        return (_CMPI_SIGNED[pred](to_signed(a, ty), to_signed(b, ty)),)
    return (_CMPI_UNSIGNED[pred](to_unsigned(a, ty), to_unsigned(b, ty)),)


@handles("arith.cmpf")
def _cmpf(m: Machine, op: Op, mask: Mask):
    a, b = m.args(op)
    a, b = a.astype(F32), b.astype(F32)  # exact widening
    unordered = np.isnan(a) | np.isnan(b)
    pred = op.attrs["pred"]
    table = {
        "oeq": lambda: a == b,
        "one": lambda: (a != b) & ~unordered,
        "olt": lambda: a < b,
        "ole": lambda: a <= b,
        "ogt": lambda: a > b,
        "oge": lambda: a >= b,
        "ord": lambda: ~unordered,
        "ueq": lambda: (a == b) | unordered,
        "une": lambda: a != b,
        "ult": lambda: ~(a >= b),
        "ule": lambda: ~(a > b),
        "ugt": lambda: ~(a <= b),
        "uge": lambda: ~(a < b),
        "uno": lambda: unordered,
    }
    return (table[pred](),)


@handles("arith.select")
def _select(m: Machine, op: Op, mask: Mask):
    cond, a, b = m.args(op)
    return (select(cond, a, b),)


# ---------------------------------------------------------------------- casts
@handles("arith.extf", "arith.truncf")
def _float_cast(m: Machine, op: Op, mask: Mask):
    (x,) = m.args(op)
    # f16/bf16 -> f32 is exact; f32 -> f16 (numpy) and f32 -> bf16 (ml_dtypes) round to nearest even.
    return (x.astype(numpy_dtype(op.results[0].type)),)


@handles("arith.sitofp")
def _sitofp(m: Machine, op: Op, mask: Mask):
    (x,) = m.args(op)
    ty = op.operands[0].type
    return (int_to_float(to_signed(x, ty), False, numpy_dtype(op.results[0].type)),)


@handles("arith.uitofp")
def _uitofp(m: Machine, op: Op, mask: Mask):
    (x,) = m.args(op)
    ty = op.operands[0].type
    return (int_to_float(to_unsigned(x, ty), True, numpy_dtype(op.results[0].type)),)


@handles("arith.fptosi")
def _fptosi(m: Machine, op: Op, mask: Mask):
    (x,) = m.args(op)
    rt = op.results[0].type
    bits = scalar_of(rt).bits
    out = float_to_int(x, -(1 << (bits - 1)), (1 << (bits - 1)) - 1, np.dtype(np.int64))
    return (wrap_int(out, rt),)


@handles("arith.fptoui")
def _fptoui(m: Machine, op: Op, mask: Mask):
    (x,) = m.args(op)
    rt = op.results[0].type
    bits = scalar_of(rt).bits
    out_dtype = np.dtype(np.uint64) if bits == 64 else np.dtype(np.int64)
    out = float_to_int(x, 0, (1 << bits) - 1, out_dtype)
    return (wrap_int(out, rt),)


@handles("arith.exts")
def _exts(m: Machine, op: Op, mask: Mask):
    (x,) = m.args(op)
    return (to_signed(x, op.operands[0].type).astype(numpy_dtype(op.results[0].type)),)


@handles("arith.extu")
def _extu(m: Machine, op: Op, mask: Mask):
    (x,) = m.args(op)
    rt = op.results[0].type
    return (to_unsigned(x, op.operands[0].type).astype(unsigned_dtype(rt)).view(numpy_dtype(rt)),)


@handles("arith.trunc")
def _trunc(m: Machine, op: Op, mask: Mask):
    (x,) = m.args(op)
    return (wrap_int(x, op.results[0].type),)
