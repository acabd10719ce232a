"""nvptx lowering of the buffer ops and the float atomic. A buffer resource is the value
{ ptr addrspace(1) base, i32 num_records }; an access runs only when its bytes lie inside
num_records (the AMD raw-buffer rule: offset + size <= num_records, offsets unsigned), so an
out-of-range load reads 0 and an out-of-range store is dropped, as on AMD. AMD's buffer accesses
need no alignment, NVIDIA's vector accesses do: an access wider than its element checks the address
and moves the whole vector when it is naturally aligned, else element by element
(platform/docs/lowering.md, "Buffers on NVIDIA")."""

from __future__ import annotations

from rocke.ir.core import Op, Value
from rocke.ir.types import ScalarType, VecType

from ..emitter import FunctionEmitter
from ..llvm_types import byte_size, elem_of, natural_align
from ..ops_mem import buffer_type, emit_gep, pointee_space


def lower_make_rsrc(em: FunctionEmitter, op: Op) -> None:
    """The (base, num_records) pair; a constant base is cast to global through the generic space."""
    base, num_records = op.operands
    base_text = em.ref(base)
    if pointee_space(base) != "global":
        generic, cast = em.temp(), em.temp()
        em.emit(f"{generic} = addrspacecast {em.typed(base)} to ptr")
        em.emit(f"{cast} = addrspacecast ptr {generic} to {em.pointer_text('global')}")
        base_text = cast
    rsrc = em.target.rsrc_type
    first = em.temp()
    em.emit(f"{first} = insertvalue {rsrc} poison, {em.pointer_text('global')} {base_text}, 0")
    em.emit(f"{em.bind(op.results[0])} = insertvalue {rsrc} {first}, {em.typed(num_records)}, 1")


def guard(em: FunctionEmitter, rsrc: Value, offset: Value, nbytes: int, kind: str) -> tuple[str, str, str, int]:
    """Branch to a new block when offset + nbytes <= num_records; returns (the access address in
    that block, the block's label, the join label, the blocks' number). The caller ends the block
    with `br label %join`."""
    base, records, wide, end, limit, inside, address = (em.temp() for _ in range(7))
    rsrc_text = em.typed(rsrc)
    em.emit(f"{base} = extractvalue {rsrc_text}, 0")
    em.emit(f"{records} = extractvalue {rsrc_text}, 1")
    em.emit(f"{wide} = zext i32 {em.ref(offset)} to i64")
    em.emit(f"{end} = add i64 {wide}, {nbytes}")
    em.emit(f"{limit} = zext i32 {records} to i64")
    em.emit(f"{inside} = icmp ule i64 {end}, {limit}")
    number = em.next_scf_id()
    access, join = f"buf{number}.{kind}", f"buf{number}.join"
    em.emit(f"br i1 {inside}, label %{access}, label %{join}")
    em.label(access)
    em.emit(f"{address} = getelementptr inbounds i8, {em.pointer_text('global')} {base}, i64 {wide}")
    return address, access, join, number


def alignment_paths(em: FunctionEmitter, address: str, ty: ScalarType | VecType, number: int) -> list[tuple[str, int]]:
    """The blocks the access runs in, each with the alignment it assumes: the current block with
    the natural alignment when that is the element's; else a branch on the address to an aligned
    block (natural alignment) and a split block (the element's alignment)."""
    natural, element = natural_align(ty), natural_align(elem_of(ty))
    if natural == element:
        return [(em.current, natural)]
    bits, low, aligned = em.temp(), em.temp(), em.temp()
    em.emit(f"{bits} = ptrtoint {em.pointer_text('global')} {address} to i64")
    em.emit(f"{low} = and i64 {bits}, {natural - 1}")
    em.emit(f"{aligned} = icmp eq i64 {low}, 0")
    vector, split = f"buf{number}.vector", f"buf{number}.split"
    em.emit(f"br i1 {aligned}, label %{vector}, label %{split}")
    return [(vector, natural), (split, element)]


def lower_buffer_load(em: FunctionEmitter, op: Op) -> None:
    rsrc, offset = op.operands
    result = op.results[0]
    ty = em.llvm_type(result.type)
    buffer_type(em, result.type)  # the access sizes AMD's raw buffers move, refused alike
    entering = em.current
    address, _, join, number = guard(em, rsrc, offset, byte_size(result.type), "load")
    incoming = []
    paths = alignment_paths(em, address, result.type, number)
    for label, align in paths:
        if len(paths) > 1:
            em.label(label)
        loaded = em.temp()
        em.emit(f"{loaded} = load {ty}, {em.pointer_text('global')} {address}, align {align}")
        em.emit(f"br label %{join}")
        incoming.append(f"[ {loaded}, %{label} ]")
    em.label(join)
    em.emit(f"{em.bind(result)} = phi {ty} {', '.join(incoming)}, [ zeroinitializer, %{entering} ]")


def lower_buffer_store(em: FunctionEmitter, op: Op) -> None:
    rsrc, offset, value = op.operands
    buffer_type(em, value.type)
    address, _, join, number = guard(em, rsrc, offset, byte_size(value.type), "store")
    paths = alignment_paths(em, address, value.type, number)
    for label, align in paths:
        if len(paths) > 1:
            em.label(label)
        em.emit(f"store {em.typed(value)}, {em.pointer_text('global')} {address}, align {align}")
        em.emit(f"br label %{join}")
    em.label(join)


def lower_atomic_add_f32(em: FunctionEmitter, op: Op) -> None:
    """Relaxed float add at the default (system) scope: atom.global.add.f32; the old value is unused."""
    ptr, index, value = op.operands
    address = emit_gep(em, ptr, index)
    em.emit(f"{em.temp()} = atomicrmw fadd {em.llvm_type(ptr.type)} {address}, {em.typed(value)} monotonic, align 4")


LOWERINGS = {
    "mem.make_rsrc": lower_make_rsrc,
    "mem.buffer_load": lower_buffer_load,
    "mem.buffer_store": lower_buffer_store,
    "mem.atomic_add_f32": lower_atomic_add_f32,
}
