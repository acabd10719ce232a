"""Lowering of mma.mma: the catalog intrinsic of its op_id."""

from __future__ import annotations

from rocke.arch import mma_intrinsic_def, mma_op
from rocke.ir.core import Op

from .emitter import FunctionEmitter


def lower_mma(em: FunctionEmitter, op: Op) -> None:
    """The catalog intrinsic with the catalog's immediates; operands whose rocke.ir type is spelled
    differently from the intrinsic's (bf16 as i16) are bitcast."""
    op_id = str(op.attrs["op_id"])
    catalog = mma_op(op_id)
    decl = em.declare(mma_intrinsic_def(op_id))
    a, b, c = op.operands
    a_type, b_type, c_type = decl.arg_types[:3]
    args = [em.operand_as(a, a_type), em.operand_as(b, b_type), em.operand_as(c, c_type)]
    args += [str(imm.value) for imm in catalog.imm_operands]
    em.call_into(decl, args, op.results[0])


LOWERINGS = {
    "mma.mma": lower_mma,
}
