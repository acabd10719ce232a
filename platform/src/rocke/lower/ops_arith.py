"""Lowering of arith.* and math.* ops: plain LLVM instructions, plus llvm.fma / minnum / maxnum /
exp2 / log2 / sqrt for the float operations LLVM has no instruction for."""

from __future__ import annotations

from rocke.arch import intrinsic_def
from rocke.ir.core import Op

from .emitter import FunctionEmitter
from .llvm_types import const_text, elem_of, lanes_of, llvm_type, splat_const

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
    "vec.bitcast": "bitcast",
}
# Float ops that are calls of an overloaded LLVM intrinsic (operands in order).
FLOAT_INTRINSICS = {
    "arith.fma": "llvm.fma.{M}",
    "arith.minf": "llvm.minnum.{M}",
    "arith.maxf": "llvm.maxnum.{M}",
    "math.exp2": "llvm.exp2.{M}",
    "math.log2": "llvm.log2.{M}",
    "math.sqrt": "llvm.sqrt.{M}",
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
    ty = llvm_type(lhs.type)
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
    ty = llvm_type(lhs.type)
    cond_ty = f"<{lanes_of(lhs.type)} x i1>" if lanes_of(lhs.type) else "i1"
    cond = em.temp()
    em.emit(f"{cond} = icmp {MINMAX[op.opcode]} {ty} {em.ref(lhs)}, {em.ref(rhs)}")
    em.emit(f"{em.bind(op.results[0])} = select {cond_ty} {cond}, {ty} {em.ref(lhs)}, {ty} {em.ref(rhs)}")


def lower_float_intrinsic(em: FunctionEmitter, op: Op) -> None:
    ty = op.results[0].type
    args = [em.ref(v) for v in op.operands]
    em.call_named(FLOAT_INTRINSICS[op.opcode], args, em.bind(op.results[0]), elem_of(ty).name, lanes_of(ty))


def lower_cmp(em: FunctionEmitter, op: Op) -> None:
    lhs, rhs = op.operands
    inst = "icmp" if op.opcode == "arith.cmpi" else "fcmp"
    em.emit(f"{em.bind(op.results[0])} = {inst} {op.attrs['pred']} {em.typed(lhs)}, {em.ref(rhs)}")


def lower_select(em: FunctionEmitter, op: Op) -> None:
    cond, a, b = op.operands
    em.emit(f"{em.bind(op.results[0])} = select i1 {em.ref(cond)}, {em.typed(a)}, {em.typed(b)}")


def lower_cast(em: FunctionEmitter, op: Op) -> None:
    result = op.results[0]
    em.emit(f"{em.bind(result)} = {CASTS[op.opcode]} {em.typed(op.operands[0])} to {llvm_type(result.type)}")


def lower_rcp(em: FunctionEmitter, op: Op) -> None:
    """1 / x, approximate (afn: the hardware reciprocal, about 1 ulp)."""
    x = op.operands[0]
    em.emit(f"{em.bind(op.results[0])} = fdiv afn {llvm_type(x.type)} {splat_const(1.0, x.type)}, {em.ref(x)}")


def lower_rsqrt(em: FunctionEmitter, op: Op) -> None:
    """1 / sqrt(x), approximate (afn on both: hardware square root and reciprocal)."""
    x = op.operands[0]
    ty = llvm_type(x.type)
    decl = em.declare(intrinsic_def("llvm.sqrt.{M}"), elem_of(x.type).name, lanes_of(x.type))
    root = em.temp()
    em.emit(f"{root} = call afn {decl.ret} @{decl.name}({ty} {em.ref(x)})")
    em.emit(f"{em.bind(op.results[0])} = fdiv afn {ty} {splat_const(1.0, x.type)}, {root}")


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
    "math.rcp": lower_rcp,
    "math.rsqrt": lower_rsqrt,
}
