"""Python builder of the img2col family (the C++ twin mirrors it function for function).

The column matrix of group g is col[g][m][(ty * filter_x + tx) * Cg + c]: row m is output pixel m
(NHWC order over N x Ho x Wo), column (tap, c) is input channel g * Cg + c under that tap, so a
GEMM with KYXC weights (K x Y*X*Cg, k contiguous) produces the NHWK output. Thread (m, v) of group
g copies the vec channels v * vec .. of every tap of pixel m: one bounds-checked vector load
(zero for taps in the padding) and one vector store per tap, taps unrolled. Consecutive threads
handle consecutive channel vectors of a pixel, so loads and stores are coalesced along C.
"""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import ArchTarget, get_arch
from rocke.families.spec import check_wave_multiple
from rocke.helpers import (
    add_i32,
    buffer_rsrc,
    divu_i32,
    elem_bytes,
    global_id_x,
    ir_type,
    masked_offset,
    mul_i32,
    vector_type,
)
from rocke.ir import Builder, KernelDef, ScalarType, Type, Value, i32, ptr, verify

from ..pixels import Pixel, inside, out_dims, pixel
from .spec import Img2colSpec

FAULTS = ("", "no_pad_fill", "reverse_taps")  # test-only broken variants (negative controls)


@dataclass(frozen=True)
class TapCopy:
    """What every tap's copy shares."""

    src: Value  # input buffer resource
    dst: Value  # column buffer resource
    dst0: Value  # byte offset of the thread's vector in tap 0's column block (out of range past M)
    tap_bytes: Value  # bytes between two taps' column blocks (Cg elements)
    h: Value  # input height
    w: Value  # input width
    row_step: Value  # input elements between two filter rows
    col_step: Value  # input elements between two filter columns
    vtype: Type  # the vector moved
    esize: int


def check_arch(spec: Img2colSpec, target: ArchTarget) -> None:
    """The arch-dependent rules (SpecError)."""
    check_wave_multiple(spec, "block", spec.block, target)


def _copy_tap(b: Builder, spec: Img2colSpec, pix: Pixel, ty: int, tx: int, slot: int, copy: TapCopy,
              fault: str) -> None:
    """Copy one tap's vector: input (row + ty * dil_h, col + tx * dil_w) -> column block `slot`."""
    hi = add_i32(b, pix.row, ty * spec.dil_h)
    wi = add_i32(b, pix.col, tx * spec.dil_w)
    ok = pix.ok if fault == "no_pad_fill" else inside(b, pix, hi, wi, copy.h, copy.w)
    index = pix.base
    if ty != 0:
        index = b.add(index, mul_i32(b, copy.row_step, ty))
    if tx != 0:
        index = b.add(index, mul_i32(b, copy.col_step, tx))
    value = b.buffer_load(copy.src, masked_offset(b, ok, index, copy.esize), copy.vtype, name="vals")
    dst = copy.dst0 if slot == 0 else b.add(copy.dst0, mul_i32(b, copy.tap_bytes, slot))
    b.buffer_store(copy.dst, dst, value)


def build(spec: Img2colSpec, arch: str, *, _fault: str = "") -> KernelDef:
    """The verified kernel for spec on arch; SpecError when the arch refuses the spec."""
    if _fault not in FAULTS:
        raise ValueError(f"unknown fault '{_fault}'")
    target = get_arch(arch)
    check_arch(spec, target)
    elem: ScalarType = ir_type(spec.dtype)
    esize = elem_bytes(spec.dtype)
    b = Builder(spec.kernel_name(), max_workgroup_size=spec.block)
    source = b.param("input", ptr(elem, "global"), noalias=True, readonly=True)
    col = b.param("col", ptr(elem, "global"), noalias=True, writeonly=True)
    n = b.param("n", i32)
    h = b.param("h", i32)
    w = b.param("w", i32)
    c = b.param("c", i32)
    g = b.param("g", i32)

    ho, wo = out_dims(b, spec, h, w)
    rows = b.mul(b.mul(n, ho), wo, name="pixels")  # M: column rows per group
    cg = b.divu(c, g, name="cg")
    kdim = mul_i32(b, cg, spec.taps)  # columns per group
    vecs = divu_i32(b, cg, spec.vec)  # channel vectors per pixel and group
    gid = global_id_x(b, spec.block)
    grp = b.block_id_y(name="grp")
    m = b.divu(gid, vecs, name="m")
    first = mul_i32(b, b.remu(gid, vecs), spec.vec)  # first channel of the vector inside the group
    channel0 = b.add(b.mul(grp, cg), first, name="chan")
    pix = pixel(b, spec, m, rows, (ho, wo, h, w, c), channel0)

    image = b.mul(b.mul(b.mul(n, h), w), c, name="in_elems")
    in_rsrc = buffer_rsrc(b, source, image, esize, name="in_rsrc")
    col_rsrc = buffer_rsrc(b, col, b.mul(rows, b.mul(kdim, g)), esize, name="col_rsrc")
    line = b.add(b.mul(grp, rows), m)
    dst0 = masked_offset(b, pix.ok, b.add(b.mul(line, kdim), first), esize)  # tap 0; dropped past M
    tap_bytes = mul_i32(b, cg, esize)  # a tap's column block
    row_step = mul_i32(b, b.mul(w, c), spec.dil_h)  # input elements between two filter rows
    col_step = mul_i32(b, c, spec.dil_w)  # ... between two filter columns
    copy = TapCopy(in_rsrc, col_rsrc, dst0, tap_bytes, h, w, row_step, col_step, vector_type(elem, spec.vec), esize)
    for ty in range(spec.filter_y):
        for tx in range(spec.filter_x):
            tap = ty * spec.filter_x + tx
            slot = spec.taps - 1 - tap if _fault == "reverse_taps" else tap
            _copy_tap(b, spec, pix, ty, tx, slot, copy, _fault)
    kernel = b.finish()
    verify(kernel, arch=target)
    return kernel
