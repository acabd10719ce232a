"""Python builder of the elementwise family (the C++ twin mirrors it function for function).

Thread t of workgroup g handles elements first = (g * block + t) * vec .. first + vec - 1. Loads
and stores go through buffer resources sized n elements: a whole vector when all of it is inside,
else one bounds-checked element at a time (out-of-range elements read 0, stores are dropped).
"""

from __future__ import annotations

from rocke.arch import ArchTarget, get_arch
from rocke.families.spec import check_wave_multiple
from rocke.helpers import (
    add_i32,
    buffer_rsrc,
    elem_bytes,
    from_f32,
    gelu_tanh,
    global_id_x,
    ir_type,
    load_guarded,
    mul_i32,
    relu,
    silu,
    store_guarded,
    to_f32,
    valid_if,
)
from rocke.ir import Builder, KernelDef, ScalarType, Value, i32, ptr, verify

from .spec import ElementwiseSpec

FAULTS = ("", "drop_tail", "shift_input")  # test-only broken variants (negative controls)


def check_arch(spec: ElementwiseSpec, target: ArchTarget) -> None:
    """The arch-dependent rules (SpecError)."""
    check_wave_multiple(spec, "block", spec.block, target)


def apply_op(b: Builder, op: str, args: list[Value], lanes: int) -> Value:
    """op over f32 scalars or vectors."""
    x = args[0]
    if op == "add":
        return b.add(x, args[1], name="r")
    if op == "sub":
        return b.sub(x, args[1], name="r")
    if op == "mul":
        return b.mul(x, args[1], name="r")
    if op == "max":
        return b.maxf(x, args[1], name="r")
    if op == "relu":
        return relu(b, x, lanes, name="r")
    if op == "silu":
        return silu(b, x, lanes, name="r")
    return gelu_tanh(b, x, lanes, name="r")


def build(spec: ElementwiseSpec, arch: str, *, _fault: str = "") -> KernelDef:
    """The verified kernel for spec on arch; SpecError when the arch refuses the spec."""
    if _fault not in FAULTS:
        raise ValueError(f"unknown fault '{_fault}'")
    target = get_arch(arch)
    check_arch(spec, target)
    elem: ScalarType = ir_type(spec.dtype)
    esize = elem_bytes(spec.dtype)
    lanes = spec.vec
    b = Builder(spec.kernel_name(), max_workgroup_size=spec.block)
    inputs = [b.param(name, ptr(elem, "global"), noalias=True, readonly=True) for name in spec.inputs]
    out = b.param("out", ptr(elem, "global"), noalias=True, writeonly=True)
    n = b.param("n", i32)

    gid = global_id_x(b, spec.block)
    first = mul_i32(b, gid, lanes, name="first")
    valid = b.sub(n, first, name="valid")  # elements of this thread's vector inside 0..n-1
    read_first, read_valid = first, valid
    if _fault == "shift_input":
        read_first, read_valid = add_i32(b, first, 1), add_i32(b, valid, -1)
    args = []
    for name, param in zip(spec.inputs, inputs, strict=True):
        rsrc = buffer_rsrc(b, param, n, esize, name=f"{name}_rsrc")
        raw = load_guarded(b, rsrc, read_first, read_valid, elem, lanes, name=name)
        args.append(to_f32(b, raw, elem, lanes, name=f"{name}_f32"))
    result = from_f32(b, apply_op(b, spec.op, args, lanes), elem, lanes, name="out_value")
    out_rsrc = buffer_rsrc(b, out, n, esize, name="out_rsrc")
    store_valid = valid
    if _fault == "drop_tail":
        store_valid = valid_if(b, b.cmpi("sge", valid, b.const(lanes, i32)), valid)
    store_guarded(b, out_rsrc, first, store_valid, result, elem, lanes)
    kernel = b.finish()
    verify(kernel, arch=target)
    return kernel
