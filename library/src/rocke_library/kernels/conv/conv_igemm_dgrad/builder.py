"""Python builder of the conv_igemm_dgrad family (the C++ twin mirrors it function for function): a
user of the tile-GEMM main loop (rocke.helpers.tile_gemm) with two filter-tap operand generators.

One GEMM per group z: dX[M x N] = dY~[M x Kdim] @ W~[Kdim x N] with M = N * H * W input pixels
(NHWC order), N = C / G input channels, Kdim = Y * X * K / G. Reduction index kk = tap * (K / G) +
ko, tap = ky * X + kx. Workgroup (x, y, z) owns input channels x * bn .. of group z for input pixels
y * bm ...

Stride: input pixel (h, w) gets tap (ky, kx) from output pixel (oh, ow) = ((h + pad_h - ky * dil_h) /
stride_h, (w + pad_w - kx * dil_w) / stride_w) when both divisions are exact and land inside dy. The
kernel masks every other (pixel, tap) pair: its A elements read 0, so a pixel no tap reaches sums
only zeros and is stored as exactly 0 (one GEMM over all pixels, no sub-GEMM decomposition; stride
s > 1 spends (s_h * s_w - 1) / (s_h * s_w) of the MMAs on masked taps).

A (GradTapOperand, k-contiguous): per copy access, once before the K loop, the input pixel's
(image, padded row, padded column); per K tile the access's kk splits into (tap, ko), the tap into
(ky, kx), and the dy element is ((img * Ho + oh) * Wo + ow) * K + g * K/G + ko. B (FilterOperand,
outer-contiguous along the input channels): element (kk, ci) is w[g * K/G + ko][tap][ci], at
((g * K/G + ko) * taps + tap) * C/G + ci. The epilogue rounds to dtype and stores every element
inside M x N (the others drop).
"""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import get_arch
from rocke.helpers import (
    AccElement,
    TileAccumulators,
    add_i32,
    buffer_rsrc,
    const_i32,
    divu_i32,
    elem_bytes,
    from_f32,
    ir_type,
    masked_offset,
    mul_i32,
    remu_i32,
    valid_if,
)
from rocke.ir import Builder, KernelDef, Value, i32, ptr, verify

from ..igemm import igemm_prologue, nhwc_rsrc
from .plan import plan_dgrad
from .spec import ConvIgemmDgradSpec

FAULTS = ("", "inexact_stride", "flip_taps")  # test-only broken variants (negative controls)


@dataclass(frozen=True)
class Params:
    """The kernel's parameters, in signature order."""

    dy: Value
    weight: Value
    dx: Value
    n: Value
    h: Value
    w: Value
    c: Value
    k: Value
    g: Value


def _source(b: Builder, padded: Value, tap_offset: Value, stride: int, out_size: Value, fault: str
            ) -> tuple[Value, Value]:
    """(output index, ok) along one spatial dimension: padded - tap_offset = out * stride exactly,
    0 <= out < out_size (unsigned compares reject a negative difference)."""
    diff = b.sub(padded, tap_offset)
    if stride == 1:
        return diff, b.cmpi("ult", diff, out_size)
    out = divu_i32(b, diff, stride)
    inside = b.cmpi("ult", out, out_size)
    if fault == "inexact_stride":
        return out, inside
    exact = b.cmpi("eq", remu_i32(b, diff, stride), const_i32(b, 0))
    return out, b.and_(inside, exact)


class GradTapOperand:
    """The A generator: input pixel (outer) x reduction index kk = tap * kg + ko (k), over NHWK dy.
    setup: the pixel's (ok, image, padded row, padded column) and the access's first kk; address: the
    dy element of the K tile's kk, valid (vec) when the tap reaches an output pixel, the input pixel
    exists and kk < Kdim, else 0."""

    def __init__(self, spec: ConvIgemmDgradSpec, rsrc: Value, origin: Value, pixels: Value,
                 dims: tuple[Value, Value, Value, Value, Value], out0: Value, kg: Value, kdim: Value, vec: int,
                 fault: str):
        self.spec = spec
        self.rsrc = rsrc
        self.origin = origin
        self.pixels = pixels
        self.dims = dims
        self.out0 = out0
        self.kg = kg
        self.kdim = kdim
        self.vec = vec
        self.fault = fault

    def setup(self, b: Builder, outer: Value, k: Value) -> object:
        spec = self.spec
        _, _, h, w, _ = self.dims
        m = b.add(self.origin, outer, name="m")
        ok = b.cmpi("slt", m, self.pixels, name="pix_ok")
        iw = b.remu(m, w, name="iw")
        rest = b.divu(m, w)
        ih = b.remu(rest, h, name="ih")
        img = b.divu(rest, h, name="img")
        row = add_i32(b, ih, spec.pad_h, name="prow")
        col = add_i32(b, iw, spec.pad_w, name="pcol")
        return ok, img, row, col, k

    def address(self, b: Builder, state: object, k0: Value | None) -> tuple[Value, Value]:
        assert isinstance(state, tuple)
        ok, img, row, col, first = state
        spec = self.spec
        ho, wo, _, _, k = self.dims
        kk = first if k0 is None else b.add(first, k0, name="kk")
        tap = b.divu(kk, self.kg, name="tap")
        ko = b.remu(kk, self.kg, name="ko")
        ky = divu_i32(b, tap, spec.filter_x, name="ky")
        kx = remu_i32(b, tap, spec.filter_x, name="kx")
        oh, row_ok = _source(b, row, mul_i32(b, ky, spec.dil_h), spec.stride_h, ho, self.fault)
        ow, col_ok = _source(b, col, mul_i32(b, kx, spec.dil_w), spec.stride_w, wo, self.fault)
        seen = b.and_(ok, b.and_(row_ok, col_ok), name="tap_ok")
        live = b.and_(seen, b.cmpi("slt", kk, self.kdim), name="a_ok")
        line = b.add(b.mul(img, ho), oh)
        spot = b.add(b.mul(line, wo), ow)
        at = b.add(b.mul(spot, k), self.out0)
        index = b.add(at, ko, name="a_index")
        return index, valid_if(b, live, const_i32(b, self.vec))


class FilterOperand:
    """The B generator: reduction index kk = tap * kg + ko (k) x input channel ci (outer), over KYXC w.
    setup: the access's (channel, channels left in the group, first kk); address: the w element of
    the K tile's kk, valid (up to the channels left) when kk < Kdim, else 0."""

    def __init__(self, spec: ConvIgemmDgradSpec, rsrc: Value, origin: Value, cg: Value, out0: Value, kg: Value,
                 kdim: Value, fault: str):
        self.spec = spec
        self.rsrc = rsrc
        self.origin = origin
        self.cg = cg
        self.out0 = out0
        self.kg = kg
        self.kdim = kdim
        self.fault = fault

    def setup(self, b: Builder, outer: Value, k: Value) -> object:
        ci = b.add(self.origin, outer, name="ci")
        return ci, b.sub(self.cg, ci, name="b_ocap"), k

    def address(self, b: Builder, state: object, k0: Value | None) -> tuple[Value, Value]:
        assert isinstance(state, tuple)
        ci, cap, first = state
        taps = self.spec.taps
        kk = first if k0 is None else b.add(first, k0, name="kk")
        tap = b.divu(kk, self.kg, name="tap")
        ko = b.remu(kk, self.kg, name="ko")
        if self.fault == "flip_taps":
            tap = b.sub(const_i32(b, taps - 1), tap)
        filt = b.add(self.out0, ko)
        row = b.add(mul_i32(b, filt, taps), tap)
        index = b.add(b.mul(row, self.cg), ci, name="b_index")
        return index, valid_if(b, b.cmpi("slt", kk, self.kdim), cap)


def _epilogue(b: Builder, spec: ConvIgemmDgradSpec, acc: TileAccumulators, params: Params, pixels: Value,
              cg: Value, in0: Value) -> None:
    """dx[m][in0 + col] = acc for every accumulator element inside pixels x cg."""
    out_t = ir_type(spec.dtype)
    esize = elem_bytes(spec.dtype)
    dx_rsrc = buffer_rsrc(b, params.dx, b.mul(pixels, params.c), esize, name="dx_rsrc")
    rows, cols = acc.coords(b)

    def store(e: AccElement) -> None:
        ok = e.inside(b, pixels, cg)
        line = b.mul(e.row, params.c)
        offset = masked_offset(b, ok, b.add(line, b.add(in0, e.col)), esize)
        b.buffer_store(dx_rsrc, offset, from_f32(b, e.value, out_t, 1, name="dx_value"))

    acc.each_element(b, rows, cols, store)


def build(spec: ConvIgemmDgradSpec, arch: str, *, _fault: str = "") -> KernelDef:
    """The verified kernel for spec on arch; SpecError when the arch refuses the spec."""
    if _fault not in FAULTS:
        raise ValueError(f"unknown fault '{_fault}'")
    target = get_arch(arch)
    plan = plan_dgrad(spec, target)
    elem = ir_type(spec.dtype)
    esize = elem_bytes(spec.dtype)
    b = Builder(spec.kernel_name(), max_workgroup_size=plan.threads)
    buffer_type = ptr(elem, "global")
    params = Params(
        dy=b.param("dy", buffer_type, noalias=True, readonly=True),
        weight=b.param("weight", buffer_type, noalias=True, readonly=True),
        dx=b.param("dx", buffer_type, noalias=True, writeonly=True),
        n=b.param("n", i32),
        h=b.param("h", i32),
        w=b.param("w", i32),
        c=b.param("c", i32),
        k=b.param("k", i32),
        g=b.param("g", i32),
    )
    start = igemm_prologue(b, spec, plan, elem, params)
    pixels = b.mul(b.mul(params.n, params.h), params.w, name="pixels")
    kdim = mul_i32(b, start.kg, spec.taps, name="kdim")
    dy_rsrc = nhwc_rsrc(b, params.dy, (params.n, start.ho, start.wo, params.k), esize, "dy_rsrc")
    w_rsrc = buffer_rsrc(b, params.weight, b.mul(params.k, mul_i32(b, start.cg, spec.taps)), esize, name="w_rsrc")
    in0 = b.mul(start.group, start.cg, name="in0")
    out0 = b.mul(start.group, start.kg, name="out0")
    dims = (start.ho, start.wo, params.h, params.w, params.k)
    a_gen = GradTapOperand(spec, dy_rsrc, start.row0, pixels, dims, out0, start.kg, kdim, plan.a.split.vec, _fault)
    b_gen = FilterOperand(spec, w_rsrc, start.col0, start.cg, out0, start.kg, kdim, _fault)
    start.loop.run(b, a_gen, b_gen, kdim, lambda acc: _epilogue(b, spec, acc, params, pixels, start.cg, in0))
    kernel = b.finish()
    verify(kernel, arch=target)
    return kernel
