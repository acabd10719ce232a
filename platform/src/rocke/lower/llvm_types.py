"""rocke.ir types and constants as LLVM IR text.

Sizes and alignment follow the packed layout rocke.ir pointers step over: a scalar takes its bit
width / 8 bytes, a vector lanes times its element (no padding, so vec<f32x3> is 12 bytes). The
natural alignment of a type is the largest power of two dividing its size, at most 16 (what a
pointer to that type guarantees when the author promises nothing more).
"""

from __future__ import annotations

import struct

from rocke.arch import LLVM, Target
from rocke.ir.floats import format_float_hex
from rocke.ir.types import PtrType, ScalarType, Type, VecType

MAX_NATURAL_ALIGN = 16


def scalar_text(scalar: ScalarType) -> str:
    return LLVM.llvm_scalar(scalar.name)


def llvm_type(ty: Type, target: Target) -> str:
    """LLVM spelling of a rocke.ir type on target: i32, half, <4 x float>, ptr addrspace(1), and
    the target's buffer resource type (ptr addrspace(8) on AMD)."""
    if isinstance(ty, ScalarType):
        return scalar_text(ty)
    if isinstance(ty, VecType):
        return f"<{ty.lanes} x {scalar_text(ty.elem)}>"
    if isinstance(ty, PtrType):
        return f"ptr addrspace({target.address_space(ty.space)})"
    return target.rsrc_type


def elem_of(ty: Type) -> ScalarType:
    """The scalar of a scalar type, the element of a vector type."""
    if isinstance(ty, VecType):
        return ty.elem
    assert isinstance(ty, ScalarType)
    return ty


def lanes_of(ty: Type) -> int:
    """Lanes of a vector type, 0 for a scalar (the convention of overloaded intrinsic spellings)."""
    return ty.lanes if isinstance(ty, VecType) else 0


def pointee_of(ty: Type) -> ScalarType | VecType:
    assert isinstance(ty, PtrType)
    return ty.pointee


def pointer_text(space: str, target: Target) -> str:
    return f"ptr addrspace({target.address_space(space)})"


def gep_type(pointee: ScalarType | VecType) -> str:
    """The element type a getelementptr steps over: the scalar, or a packed array for a vector."""
    if isinstance(pointee, VecType):
        return f"[{pointee.lanes} x {scalar_text(pointee.elem)}]"
    return scalar_text(pointee)


def byte_size(ty: ScalarType | VecType) -> int:
    if isinstance(ty, VecType):
        return ty.lanes * (ty.elem.bits // 8)
    return max(1, ty.bits // 8)


def natural_align(ty: ScalarType | VecType) -> int:
    size = byte_size(ty)
    align = 1
    while align < MAX_NATURAL_ALIGN and size % (align * 2) == 0:
        align *= 2
    return align


def int_text(value: int, scalar: ScalarType) -> str:
    """Decimal, signed; i1 is true/false."""
    if scalar.bits == 1:
        return "true" if value else "false"
    return str(value)


def float_text(value: float, scalar: ScalarType) -> str:
    """LLVM hex float: float 0x + 16 hex digits of the binary64 value, half 0xH + its 16 bits,
    bfloat 0xR + its 16 bits (upper-case hex). The value is exactly representable in the type."""
    if scalar.name == "f16":
        return f"0xH{int.from_bytes(struct.pack('>e', value), 'big'):04X}"
    if scalar.name == "bf16":
        return f"0xR{int.from_bytes(struct.pack('>f', value), 'big') >> 16:04X}"
    return format_float_hex(value)


def const_text(value: int | float, scalar: ScalarType) -> str:
    if scalar.is_float:
        return float_text(float(value), scalar)
    return int_text(int(value), scalar)


def splat_const(value: int | float, ty: Type) -> str:
    """A constant of type ty holding value in every lane (vectors use splat (...))."""
    if isinstance(ty, VecType):
        return f"splat ({scalar_text(ty.elem)} {const_text(value, ty.elem)})"
    assert isinstance(ty, ScalarType)
    return const_text(value, ty)


def i32_text(value: int) -> str:
    """An unsigned 32-bit pattern as LLVM's signed i32 decimal."""
    return str(value - (1 << 32) if value >= 1 << 31 else value)
