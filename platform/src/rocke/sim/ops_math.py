"""math.*: computed in binary64 and rounded once to the operand type (nearest, ties to even).

sqrt and rcp are therefore correctly rounded (binary64 carries more than 2p + 2 bits for every
type); exp2, log2 and rsqrt are within 0.5 ulp plus a binary64 ulp of the exact value. The GPU's
v_exp_f32 / v_log_f32 / v_rcp_f32 / v_rsq_f32 are 1-ulp approximations, so comparisons against a
device need at least that much tolerance. Special values follow IEEE: log2(0) = -inf,
log2(x < 0) = NaN, rcp(0) = inf with the sign of the zero, rsqrt(0) = inf.
"""

from __future__ import annotations

import numpy as np

from rocke.ir import Op

from .machine import Machine, Mask, handler_table
from .rounding import F64, round_f64

HANDLERS, handles = handler_table()


def _unary(fn):
    def handler(m: Machine, op: Op, mask: Mask):
        (x,) = m.args(op)
        with np.errstate(all="ignore"):
            return (round_f64(fn(x.astype(F64)), x.dtype),)

    return handler


handles("math.exp2")(_unary(np.exp2))
handles("math.log2")(_unary(np.log2))
handles("math.rcp")(_unary(lambda x: 1.0 / x))
handles("math.sqrt")(_unary(np.sqrt))
handles("math.rsqrt")(_unary(lambda x: 1.0 / np.sqrt(x)))
