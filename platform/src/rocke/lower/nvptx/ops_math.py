"""nvptx lowering of math.* ops, in f32 per lane: exp2 is ex2.approx.f32 (llvm.exp2.f32), log2
lg2.approx.f32, sqrt sqrt.rn.f32, rcp rcp.rn.f32 and rsqrt sqrt.rn then rcp.rn. f16 and bf16
values are extended to f32 and the result rounded back; vectors are computed lane by lane.
(llvm.log2.f32 has no NVPTX lowering without a libcall, and `fdiv afn` is rcp.approx at LLVM 22
but rcp.rn at LLVM 20, so both are named by their NVVM intrinsics to mean one thing everywhere.)"""

from __future__ import annotations

from collections.abc import Callable

from rocke.arch import intrinsic_def
from rocke.ir.core import Op
from rocke.ir.types import ScalarType, VecType

from ..emitter import FunctionEmitter
from ..llvm_types import scalar_text

F32 = "float"
# math op -> the f32 intrinsics applied in order (rsqrt: the root, then its reciprocal).
STEPS = {
    "math.exp2": ("llvm.exp2.{M}",),
    "math.log2": ("llvm.nvvm.lg2.approx.f",),
    "math.sqrt": ("llvm.sqrt.{M}",),
    "math.rcp": ("llvm.nvvm.rcp.rn.f",),
    "math.rsqrt": ("llvm.sqrt.{M}", "llvm.nvvm.rcp.rn.f"),
}


def f32_steps(em: FunctionEmitter, steps: tuple[str, ...], x: str, result: str | None) -> str:
    """Each step's intrinsic applied in turn to the f32 text x, the last into result (a new
    temporary when None; temporaries are taken as they are defined, so they number in text order)."""
    for index, name in enumerate(steps):
        row = intrinsic_def(name)
        decl = em.declare(row, "f32", 0) if row.overload else em.declare(row)
        out = result if index == len(steps) - 1 and result is not None else em.temp()
        em.call(decl, [x], out)
        x = out
    return x


def scalar_math(em: FunctionEmitter, steps: tuple[str, ...], elem: ScalarType, x: str, result: str | None) -> str:
    """One lane: the steps of x into result (a new temporary when None), extended to f32 and
    rounded back when elem is not f32."""
    ty = scalar_text(elem)
    if ty == F32:
        return f32_steps(em, steps, x, result)
    wide = em.temp()
    em.emit(f"{wide} = fpext {ty} {x} to {F32}")
    value = f32_steps(em, steps, wide, None)
    result = result if result is not None else em.temp()
    em.emit(f"{result} = fptrunc {F32} {value} to {ty}")
    return result


def lower_math(em: FunctionEmitter, op: Op) -> None:
    steps = STEPS[op.opcode]
    x = op.operands[0]
    result = op.results[0]
    if isinstance(x.type, ScalarType):
        scalar_math(em, steps, x.type, em.ref(x), em.bind(result))
        return
    assert isinstance(x.type, VecType)
    vec_text = em.llvm_type(x.type)
    elem = scalar_text(x.type.elem)
    acc = "poison"
    for lane in range(x.type.lanes):
        item = em.temp()
        em.emit(f"{item} = extractelement {em.typed(x)}, i32 {lane}")
        value = scalar_math(em, steps, x.type.elem, item, None)
        nxt = em.bind(result) if lane == x.type.lanes - 1 else em.temp()
        em.emit(f"{nxt} = insertelement {vec_text} {acc}, {elem} {value}, i32 {lane}")
        acc = nxt


LOWERINGS: dict[str, Callable[[FunctionEmitter, Op], None]] = {name: lower_math for name in STEPS}
