"""Lowering of mma.mma: the catalog intrinsic of its op_id, on every target.

A fragment the catalog passes in one part is one vector argument (bitcast when its rocke.ir type is
spelled differently, e.g. bf16 as i16); one passed in parts (NVPTX mma.sync) is split into 32-bit
parts by a bitcast to <parts x iN> and extractelement, each part bitcast to the catalog's part
type, and the struct result is gathered back into the rocke.ir vector."""

from __future__ import annotations

from rocke.arch import MmaOperand, mma_intrinsic_def, mma_op
from rocke.ir.core import Op, Value
from rocke.ir.types import VecType

from .emitter import FunctionEmitter
from .llvm_types import byte_size, scalar_text


def operand_args(em: FunctionEmitter, value: Value, frag: MmaOperand) -> list[str]:
    """The argument texts of one fragment."""
    if frag.parts == 1:
        return [em.operand_as(value, frag.llvm_type)]
    assert isinstance(value.type, VecType)
    part_bits = byte_size(value.type) * 8 // frag.parts
    words_type = f"<{frag.parts} x i{part_bits}>"
    elem = scalar_text(value.type.elem)
    words = em.operand_as(value, words_type) if elem != frag.llvm_elem else em.ref(value)
    source = words_type if elem != frag.llvm_elem else em.llvm_type(value.type)
    args = []
    for part in range(frag.parts):
        item = em.temp()
        em.emit(f"{item} = extractelement {source} {words}, i32 {part}")
        if elem != frag.llvm_elem and frag.llvm_elem != f"i{part_bits}":
            cast = em.temp()
            em.emit(f"{cast} = bitcast i{part_bits} {item} to {frag.llvm_elem}")
            item = cast
        args.append(item)
    return args


def lower_mma(em: FunctionEmitter, op: Op) -> None:
    """The catalog intrinsic with the catalog's immediates."""
    op_id = str(op.attrs["op_id"])
    catalog = mma_op(op_id)
    decl = em.declare(mma_intrinsic_def(op_id))
    a, b, c = op.operands
    args = [*operand_args(em, a, catalog.a), *operand_args(em, b, catalog.b), *operand_args(em, c, catalog.c)]
    args += [str(imm.value) for imm in catalog.imm_operands]
    result = op.results[0]
    if catalog.c.parts == 1:
        em.call_into(decl, args, result)
        return
    whole = em.temp()
    em.call(decl, args, whole)
    ty = em.llvm_type(result.type)
    acc = "poison"
    for part in range(catalog.c.parts):
        item = em.temp()
        em.emit(f"{item} = extractvalue {decl.ret} {whole}, {part}")
        nxt = em.bind(result) if part == catalog.c.parts - 1 else em.temp()
        em.emit(f"{nxt} = insertelement {ty} {acc}, {catalog.c.llvm_elem} {item}, i32 {part}")
        acc = nxt


LOWERINGS = {
    "mma.mma": lower_mma,
}
