"""Lowering of mem.* ops: addressing, global/constant/LDS loads and stores, raw buffers, atomics."""

from __future__ import annotations

from rocke.arch import intrinsic_def
from rocke.ir.core import Op, Value
from rocke.ir.types import PtrType, ScalarType, Type, VecType

from .emitter import FunctionEmitter, int_attr
from .llvm_types import byte_size, gep_type, i32_text, natural_align, pointee_of

# Bytes a raw buffer access moves -> the name suffix of the buffer intrinsic that moves them (its
# memory type is the intrinsic's: the return type of a load, the data operand of a store).
BUFFER_SUFFIXES = {1: "i8", 2: "i16", 4: "i32", 8: "v2i32", 12: "v3i32", 16: "v4i32"}
BUFFER_SIZES_TEXT = "1, 2, 4, 8, 12 or 16"


def pointee_space(ptr: Value) -> str:
    assert isinstance(ptr.type, PtrType)
    return ptr.type.space


def emit_gep(em: FunctionEmitter, ptr: Value, index: Value, result: str | None = None) -> str:
    """result (a new temporary when None) = ptr advanced by index pointees."""
    if result is None:
        result = em.temp()
    em.emit(f"{result} = getelementptr inbounds {gep_type(pointee_of(ptr.type))}, {em.typed(ptr)}, {em.typed(index)}")
    return result


def access_align(op: Op, ptr: Value) -> int:
    """The align attribute, or what the pointer guarantees (the pointee's natural alignment)."""
    align = int_attr(op, "align")
    return align if align else natural_align(pointee_of(ptr.type))


def lower_load(em: FunctionEmitter, op: Op) -> None:
    ptr, index = op.operands
    address = emit_gep(em, ptr, index)
    result = op.results[0]
    em.emit(f"{em.bind(result)} = load {em.llvm_type(result.type)}, {em.llvm_type(ptr.type)} {address}, "
            f"align {access_align(op, ptr)}")


def lower_store(em: FunctionEmitter, op: Op) -> None:
    ptr, index, value = op.operands
    address = emit_gep(em, ptr, index)
    em.emit(f"store {em.typed(value)}, {em.llvm_type(ptr.type)} {address}, align {access_align(op, ptr)}")


def lower_ptr_add(em: FunctionEmitter, op: Op) -> None:
    ptr, index = op.operands
    emit_gep(em, ptr, index, em.bind(op.results[0]))


def lower_lds_alloc(em: FunctionEmitter, op: Op) -> None:
    result = op.results[0]
    lds = em.pointer_text("lds")
    pool = em.target.lds_pool
    em.emit(f"{em.bind(result)} = getelementptr inbounds i8, {lds} {pool}, i32 {em.lds_offsets[result.id]}")


def lower_make_rsrc(em: FunctionEmitter, op: Op) -> None:
    """llvm.amdgcn.make.buffer.rsrc(base, stride 0, num_records, flags = the arch's word 3). The
    record count's width comes from the flavor's declaration; a constant base is cast to global."""
    base, num_records = op.operands
    decl = em.declare(intrinsic_def("llvm.amdgcn.make.buffer.rsrc.p8.p1"))
    base_text = em.ref(base)
    if pointee_space(base) != "global":
        cast = em.temp()
        em.emit(f"{cast} = addrspacecast {em.typed(base)} to {em.pointer_text('global')}")
        base_text = cast
    count_text = em.ref(num_records)
    count_type = decl.arg_types[2]
    if count_type != "i32":
        wide = em.temp()
        em.emit(f"{wide} = zext i32 {count_text} to {count_type}")
        count_text = wide
    em.call(decl, [base_text, "0", count_text, i32_text(em.arch.buffer_rsrc_word3)], em.bind(op.results[0]))


def buffer_type(em: FunctionEmitter, value_type: Type) -> str:
    """The intrinsic suffix of the buffer access moving a value_type."""
    assert isinstance(value_type, ScalarType | VecType)
    size = byte_size(value_type)
    found = BUFFER_SUFFIXES.get(size)
    if found is None:
        raise em.error(f"a buffer access of {value_type.text} moves {size} bytes; raw buffer accesses move "
                       f"{BUFFER_SIZES_TEXT} bytes")
    return found


def lower_buffer_load(em: FunctionEmitter, op: Op) -> None:
    rsrc_value, offset = op.operands
    result = op.results[0]
    decl = em.declare(intrinsic_def("llvm.amdgcn.raw.ptr.buffer.load." + buffer_type(em, result.type)))
    em.call_into(decl, [em.ref(rsrc_value), em.ref(offset), "0", "0"], result)


def lower_buffer_store(em: FunctionEmitter, op: Op) -> None:
    rsrc_value, offset, value = op.operands
    decl = em.declare(intrinsic_def("llvm.amdgcn.raw.ptr.buffer.store." + buffer_type(em, value.type)))
    data = em.operand_as(value, decl.arg_types[0])
    em.call(decl, [data, em.ref(rsrc_value), em.ref(offset), "0", "0"], None)


def lower_atomic_add_f32(em: FunctionEmitter, op: Op) -> None:
    """Device-scope (agent) relaxed float add; the old value is unused."""
    ptr, index, value = op.operands
    address = emit_gep(em, ptr, index)
    em.emit(f"{em.temp()} = atomicrmw fadd {em.llvm_type(ptr.type)} {address}, {em.typed(value)} "
            'syncscope("agent") monotonic, align 4')


# Plain memory accesses, lowered alike on every target.
SHARED_LOWERINGS = {
    "mem.load": lower_load,
    "mem.lds_load": lower_load,
    "mem.store": lower_store,
    "mem.lds_store": lower_store,
    "mem.ptr_add": lower_ptr_add,
    "mem.lds_alloc": lower_lds_alloc,
}

# The amdgcn target's buffer and atomic lowerings.
LOWERINGS = {
    "mem.make_rsrc": lower_make_rsrc,
    "mem.buffer_load": lower_buffer_load,
    "mem.buffer_store": lower_buffer_store,
    "mem.atomic_add_f32": lower_atomic_add_f32,
}
