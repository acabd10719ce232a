"""math.*: each op computes what the instruction sequence the lowering emits computes, with the
hardware's approximations replaced by correct rounding (the sequences are in simulator.md).

* exp2, log2: binary64, rounded once to f32 or f16; bf16 goes through f32 (LLVM 22 computes it
  with v_exp_f32 / v_log_f32 and rounds the f32 result to bf16). f32 denormal results and
  inputs are kept (LLVM scales around v_exp_f32 / v_log_f32 for them).
* sqrt: correctly rounded (LLVM's f32 sequence corrects v_sqrt_f32; bf16 goes through it).
* rcp: `fdiv afn 1, x`, which is v_rcp_f32 for f32 and bf16 (through f32) and v_rcp_f16 for f16.
  v_rcp_f32 flushes denormal inputs and results to zero of the same sign, so rcp(2^127) = 0 and
  rcp(1e-40) = inf in f32 and bf16; f16 keeps its denormals.
* rsqrt: `sqrt afn` then `fdiv afn 1, .`: two instructions (v_sqrt then v_rcp) with the
  intermediate result rounded to the operand type (bf16: to f32 and then to bf16), v_sqrt_f32
  flushing denormal inputs like v_rcp_f32.

The GPU's v_exp / v_log / v_rcp / v_sqrt (f32 without correction, and f16) are 1-ulp
approximations: the simulator rounds each to nearest, or - with run(approx_rounding="up" /
"down") - to the neighbour above / below the exact value, the two ends of the hardware's error,
so a test can show its tolerance covers them.

On an NVIDIA arch (target vendor "nvidia") the lowering computes every math op in f32, lane by lane
(rocke/lower/nvptx/ops_math.py), and the simulator models that instead: the input widened to f32
(exact), then ex2.approx.f32 / lg2.approx.f32 (approximations, rounded as above), sqrt.rn.f32 and
rcp.rn.f32 (correctly rounded, denormals kept), rsqrt as sqrt.rn then rcp.rn, and the f32 result
rounded to the op's type (fptrunc: nearest, ties to even).
"""

from __future__ import annotations

import numpy as np

from rocke.ir import Op

from .dtypes import BF16
from .machine import Machine, Mask, handler_table
from .rounding import F16, F32, F64, round_f64

HANDLERS, handles = handler_table()

_F32_TINY = np.float32(np.finfo(np.float32).tiny)  # 2^-126, the smallest normal f32


def flush_f32(x: np.ndarray) -> np.ndarray:
    """f32 denormals to a zero of the same sign (what v_rcp_f32 / v_sqrt_f32 do to inputs and
    results)."""
    return np.where(np.abs(x) < _F32_TINY, np.copysign(np.float32(0.0), x), x)


def approx(exact: np.ndarray, dtype: np.dtype, skew: int) -> np.ndarray:
    """One approximate instruction's result from its binary64 value: rounded to nearest (skew 0),
    or to the neighbour above (+1) / below (-1) the exact value, the two ends of a 1-ulp error."""
    near = round_f64(exact, dtype)
    if skew == 0:
        return near
    back = near.astype(F64)
    off = (back < exact) if skew > 0 else (back > exact)
    off &= np.isfinite(exact)
    if not off.any():
        return near
    toward = np.array(np.inf if skew > 0 else -np.inf, dtype)
    return np.where(off, np.nextafter(near, toward), near)


def rcp_f32(x: np.ndarray, skew: int = 0) -> np.ndarray:
    """v_rcp_f32: flushed input, 1 / x rounded to f32, flushed result."""
    return flush_f32(approx(1.0 / flush_f32(x).astype(F64), F32, skew))


def sqrt_afn_f32(x: np.ndarray, skew: int = 0) -> np.ndarray:
    """v_sqrt_f32 (no correction sequence): flushed input, rounded result."""
    return approx(np.sqrt(flush_f32(x).astype(F64)), F32, skew)


def exp2(x: np.ndarray, skew: int = 0) -> np.ndarray:
    return _via_f32(np.exp2, x, skew)


def log2(x: np.ndarray, skew: int = 0) -> np.ndarray:
    return _via_f32(np.log2, x, skew)


def _via_f32(fn, x: np.ndarray, skew: int) -> np.ndarray:
    """v_exp / v_log: f32 and f16 natively; bf16 through f32, the result rounded to bf16."""
    if x.dtype == BF16:
        return approx(fn(x.astype(F64)), F32, skew).astype(BF16)
    return approx(fn(x.astype(F64)), x.dtype, skew)


def sqrt(x: np.ndarray, skew: int = 0) -> np.ndarray:
    """f32 and bf16 are correctly rounded (LLVM's corrected sequence); f16 is v_sqrt_f16."""
    return approx(np.sqrt(x.astype(F64)), x.dtype, skew if x.dtype == F16 else 0)


def rcp(x: np.ndarray, skew: int = 0) -> np.ndarray:
    if x.dtype == F16:
        return approx(1.0 / x.astype(F64), F16, skew)  # v_rcp_f16
    if x.dtype == F32:
        return rcp_f32(x, skew)
    return rcp_f32(x.astype(F32), skew).astype(BF16)  # fpext, v_rcp_f32, round to bf16


def rsqrt(x: np.ndarray, skew: int = 0) -> np.ndarray:
    if x.dtype == F16:
        root = approx(np.sqrt(x.astype(F64)), F16, -skew)  # v_sqrt_f16 (a low root: a high result)
        return approx(1.0 / root.astype(F64), F16, skew)  # v_rcp_f16
    if x.dtype == F32:
        return rcp_f32(sqrt_afn_f32(x, -skew), skew)
    root = sqrt_afn_f32(x.astype(F32), -skew).astype(BF16)  # v_sqrt_f32, round to bf16
    return rcp_f32(root.astype(F32), skew).astype(BF16)  # v_rcp_f32, round to bf16


# ---------------------------------------------------------------------- NVIDIA: in f32, per lane
def _nv_f32(steps, x: np.ndarray, skew: int) -> np.ndarray:
    """Each (exact binary64 function, approximate?) step applied to the f32 value of x, each result
    rounded to f32 (an approximate step to the neighbour `skew` picks); the result in x's type."""
    value = x.astype(F32)
    for fn, approximate in steps:
        exact = fn(value.astype(F64))
        value = approx(exact, F32, skew) if approximate else round_f64(exact, F32)
    return value if x.dtype == F32 else value.astype(x.dtype)


NVIDIA_STEPS = {
    "math.exp2": ((np.exp2, True),),  # ex2.approx.f32
    "math.log2": ((np.log2, True),),  # lg2.approx.f32
    "math.sqrt": ((np.sqrt, False),),  # sqrt.rn.f32
    "math.rcp": ((lambda v: 1.0 / v, False),),  # rcp.rn.f32
    "math.rsqrt": ((np.sqrt, False), (lambda v: 1.0 / v, False)),  # sqrt.rn.f32, then rcp.rn.f32
}


def nvidia_math(opcode: str, x: np.ndarray, skew: int = 0) -> np.ndarray:
    """What the nvptx lowering of math op `opcode` computes for x (f16, bf16 or f32 lanes)."""
    return _nv_f32(NVIDIA_STEPS[opcode], x, skew)


def _unary(fn):
    def handler(m: Machine, op: Op, mask: Mask):
        (x,) = m.args(op)
        with np.errstate(all="ignore"):
            if m.arch.vendor_target.vendor == "nvidia":
                return (nvidia_math(op.opcode, x, m.approx_skew),)
            return (fn(x, m.approx_skew),)

    return handler


handles("math.exp2")(_unary(exp2))
handles("math.log2")(_unary(log2))
handles("math.rcp")(_unary(rcp))
handles("math.sqrt")(_unary(sqrt))
handles("math.rsqrt")(_unary(rsqrt))
