"""Lowering of arith.* ops: plain LLVM instructions, plus llvm.fma / minnum / maxnum for the float
operations LLVM has no instruction for."""

from __future__ import annotations

from rocke.ir.core import Op

from .emitter import FunctionEmitter
from .llvm_types import const_text, elem_of, lanes_of

# op -> (instruction for integer operands, instruction for float operands); "" = not defined.
BINARY = {
    "arith.add": ("add", "fadd"),
    "arith.sub": ("sub", "fsub"),
    "arith.mul": ("mul", "fmul"),
    "arith.divf": ("", "fdiv"),
    "arith.divs": ("sdiv", ""),
    "arith.divu": ("udiv", ""),
    "arith.rems": ("srem", ""),
    "arith.remu": ("urem", ""),
    "arith.and": ("and", ""),
    "arith.or": ("or", ""),
    "arith.xor": ("xor", ""),
    "arith.shl": ("shl", ""),
    "arith.shrs": ("ashr", ""),
    "arith.shru": ("lshr", ""),
}
# Integer min/max as compare + select (what LLVM matches to v_min/v_max).
MINMAX = {"arith.mins": "slt", "arith.maxs": "sgt", "arith.minu": "ult", "arith.maxu": "ugt"}
CASTS = {
    "arith.extf": "fpext",
    "arith.truncf": "fptrunc",
    "arith.sitofp": "sitofp",
    "arith.uitofp": "uitofp",
    "arith.fptosi": "fptosi",
    "arith.fptoui": "fptoui",
    "arith.exts": "sext",
    "arith.extu": "zext",
    "arith.trunc": "trunc",
}
# Float ops that are calls of an overloaded LLVM intrinsic (operands in order).
FLOAT_INTRINSICS = {
    "arith.fma": "llvm.fma.{M}",
    "arith.minf": "llvm.minnum.{M}",
    "arith.maxf": "llvm.maxnum.{M}",
}


def lower_constant(em: FunctionEmitter, op: Op) -> None:
    result = op.results[0]
    value = op.attrs["value"]
    assert isinstance(value, int | float)
    em.alias(result, const_text(value, elem_of(result.type)))


def lower_binary(em: FunctionEmitter, op: Op) -> None:
    lhs, rhs = op.operands
    int_inst, float_inst = BINARY[op.opcode]
    inst = float_inst if elem_of(lhs.type).is_float else int_inst
    em.emit(f"{em.bind(op.results[0])} = {inst} {em.typed(lhs)}, {em.ref(rhs)}")


def lower_remf(em: FunctionEmitter, op: Op) -> None:
    """frem; bf16 goes through f32 (LLVM 22 has no bf16 frem lowering: "no libcall available for
    frem"). fmod is exact, so the f32 result is the bf16 result exactly."""
    lhs, rhs = op.operands
    result = op.results[0]
    ty = em.llvm_type(lhs.type)
    if elem_of(lhs.type).name != "bf16":
        em.emit(f"{em.bind(result)} = frem {ty} {em.ref(lhs)}, {em.ref(rhs)}")
        return
    wide = f"<{lanes_of(lhs.type)} x float>" if lanes_of(lhs.type) else "float"
    a, b, r = em.temp(), em.temp(), em.temp()
    em.emit(f"{a} = fpext {ty} {em.ref(lhs)} to {wide}")
    em.emit(f"{b} = fpext {ty} {em.ref(rhs)} to {wide}")
    em.emit(f"{r} = frem {wide} {a}, {b}")
    em.emit(f"{em.bind(result)} = fptrunc {wide} {r} to {ty}")


def lower_negf(em: FunctionEmitter, op: Op) -> None:
    em.emit(f"{em.bind(op.results[0])} = fneg {em.typed(op.operands[0])}")


def lower_minmax(em: FunctionEmitter, op: Op) -> None:
    lhs, rhs = op.operands
    ty = em.llvm_type(lhs.type)
    cond_ty = f"<{lanes_of(lhs.type)} x i1>" if lanes_of(lhs.type) else "i1"
    cond = em.temp()
    em.emit(f"{cond} = icmp {MINMAX[op.opcode]} {ty} {em.ref(lhs)}, {em.ref(rhs)}")
    em.emit(f"{em.bind(op.results[0])} = select {cond_ty} {cond}, {ty} {em.ref(lhs)}, {ty} {em.ref(rhs)}")


def lower_float_intrinsic(em: FunctionEmitter, op: Op) -> None:
    em.call_float(FLOAT_INTRINSICS[op.opcode], op)


def lower_cmp(em: FunctionEmitter, op: Op) -> None:
    lhs, rhs = op.operands
    inst = "icmp" if op.opcode == "arith.cmpi" else "fcmp"
    em.emit(f"{em.bind(op.results[0])} = {inst} {op.attrs['pred']} {em.typed(lhs)}, {em.ref(rhs)}")


def lower_select(em: FunctionEmitter, op: Op) -> None:
    cond, a, b = op.operands
    em.emit(f"{em.bind(op.results[0])} = select i1 {em.ref(cond)}, {em.typed(a)}, {em.typed(b)}")


def lower_cast(em: FunctionEmitter, op: Op) -> None:
    result = op.results[0]
    em.emit(f"{em.bind(result)} = {CASTS[op.opcode]} {em.typed(op.operands[0])} to {em.llvm_type(result.type)}")


LOWERINGS = {
    "arith.constant": lower_constant,
    **{name: lower_binary for name in BINARY},
    "arith.remf": lower_remf,
    "arith.negf": lower_negf,
    **{name: lower_minmax for name in MINMAX},
    **{name: lower_float_intrinsic for name in FLOAT_INTRINSICS},
    "arith.cmpi": lower_cmp,
    "arith.cmpf": lower_cmp,
    "arith.select": lower_select,
    **{name: lower_cast for name in CASTS},
}
