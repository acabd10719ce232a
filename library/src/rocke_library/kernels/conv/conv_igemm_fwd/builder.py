"""Python builder of the conv_igemm_fwd family (the C++ twin mirrors it function for function): a
user of the tile-GEMM main loop (rocke.helpers.tile_gemm) with a filter-tap operand generator.

One GEMM per group z: C[M x N] = A[M x Kdim] @ B[Kdim x N] with M = N * Ho * Wo output pixels (NHWC
order), N = K / G output channels, Kdim = Y * X * C / G. Reduction index kk = tap * (C / G) + ci,
tap = ky * X + kx (the order of a KYXC filter row). Workgroup (x, y, z) owns output channels
x * bn .. of group z for pixels y * bm ...

A (TapOperand): per copy access, once before the K loop, the pixel's window origin and NHWC base
(rocke_library.kernels.conv.pixels); per K tile the access's kk splits into (tap, ci), the tap into
(ky, kx), and the input element is base + (ky * dil_h * W + kx * dil_w) * C + ci. Taps in the
padding, pixels past M and kk past Kdim get valid count 0, so the copy reads zero there (an
out-of-range buffer offset). The 1x1 / stride-1 / unpadded fast path reads x as the dense matrix
A[pixel][C] (a MatrixOperand with lead C and base g * C / G): no tap arithmetic. B is the dense
matrix w[g * K / G + n][kk] (a MatrixOperand with lead Kdim). The epilogue adds bias[k], applies
relu, rounds to dtype and stores each element inside M x N; the others drop.
"""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import get_arch
from rocke.helpers import (
    AccElement,
    ColumnKey,
    MatrixOperand,
    TileAccumulators,
    buffer_rsrc,
    const_i32,
    divu_i32,
    elem_bytes,
    from_f32,
    ir_type,
    load_guarded,
    masked_offset,
    mul_i32,
    relu,
    remu_i32,
    to_f32,
    valid_if,
)
from rocke.ir import Builder, KernelDef, Value, i32, ptr, verify

from ..igemm import igemm_prologue, nhwc_rsrc
from ..pixels import Pixel, inside, pixel
from .plan import plan_conv
from .spec import ConvIgemmFwdSpec

FAULTS = ("", "drop_pad_mask", "swap_taps")  # test-only broken variants (negative controls)


@dataclass(frozen=True)
class Params:
    """The kernel's parameters, in signature order (bias is None without spec.bias)."""

    input: Value
    weight: Value
    bias: Value | None
    output: Value
    n: Value
    h: Value
    w: Value
    c: Value
    k: Value
    g: Value


class TapOperand:
    """The A generator: output pixel (outer) x reduction index kk = tap * cg + ci (k), over NHWC x.
    setup: the pixel's (ok, window row, window column, NHWC base of channel group0 + 0) and the
    access's first kk; address: the element of the K tile's kk, valid (vec) inside the image, the
    pixels and Kdim, else 0."""

    def __init__(self, spec: ConvIgemmFwdSpec, rsrc: Value, origin: Value, pixels: Value,
                 dims: tuple[Value, Value, Value, Value, Value], channel0: Value, cg: Value, kdim: Value, vec: int,
                 fault: str):
        self.spec = spec
        self.rsrc = rsrc
        self.origin = origin
        self.pixels = pixels
        self.dims = dims
        self.channel0 = channel0
        self.cg = cg
        self.kdim = kdim
        self.vec = vec
        self.fault = fault

    def setup(self, b: Builder, outer: Value, k: Value) -> object:
        m = b.add(self.origin, outer, name="m")
        pix = pixel(b, self.spec, m, self.pixels, self.dims, self.channel0)
        return pix.ok, pix.row, pix.col, pix.base, k

    def address(self, b: Builder, state: object, k0: Value | None) -> tuple[Value, Value]:
        assert isinstance(state, tuple)
        ok, row, col, base, first = state
        spec = self.spec
        _, _, h, w, c = self.dims
        kk = first if k0 is None else b.add(first, k0, name="kk")
        tap = b.divu(kk, self.cg, name="tap")
        ci = b.remu(kk, self.cg, name="ci")
        if self.fault == "swap_taps":
            ky = remu_i32(b, tap, spec.filter_y, name="ky")
            kx = divu_i32(b, tap, spec.filter_y, name="kx")
        else:
            ky = divu_i32(b, tap, spec.filter_x, name="ky")
            kx = remu_i32(b, tap, spec.filter_x, name="kx")
        dy = mul_i32(b, ky, spec.dil_h)
        dx = mul_i32(b, kx, spec.dil_w)
        hi = b.add(row, dy)
        wi = b.add(col, dx)
        pix = Pixel(ok, row, col, base)
        seen = ok if self.fault == "drop_pad_mask" else inside(b, pix, hi, wi, h, w)
        live = b.and_(seen, b.cmpi("slt", kk, self.kdim), name="a_ok")
        spot = b.add(b.mul(dy, w), dx)
        index = b.add(b.add(base, b.mul(spot, c)), ci, name="a_index")
        return index, valid_if(b, live, const_i32(b, self.vec))


def _epilogue(b: Builder, spec: ConvIgemmFwdSpec, acc: TileAccumulators, params: Params, pixels: Value, kg: Value,
              out0: Value) -> None:
    """y[m][out0 + col] = act(acc (+ bias)) for every accumulator element inside pixels x kg."""
    out_t = ir_type(spec.dtype)
    esize = elem_bytes(spec.dtype)
    y_rsrc = buffer_rsrc(b, params.output, b.mul(pixels, params.k), esize, name="y_rsrc")
    rows, cols = acc.coords(b)
    bias: dict[ColumnKey, Value] = {}
    if spec.bias:
        assert params.bias is not None
        bias_rsrc = buffer_rsrc(b, params.bias, params.k, esize, name="bias_rsrc")
        bias = acc.column_values(b, cols, lambda col: to_f32(
            b, load_guarded(b, bias_rsrc, b.add(out0, col), b.sub(kg, col), out_t, 1, name="bias"), out_t, 1))

    def store(e: AccElement) -> None:
        value = b.add(e.value, bias[e.col_key]) if spec.bias else e.value
        if spec.relu:
            value = relu(b, value, 1)
        offset = masked_offset(b, e.inside(b, pixels, kg), b.add(b.mul(e.row, params.k), b.add(out0, e.col)), esize)
        b.buffer_store(y_rsrc, offset, from_f32(b, value, out_t, 1, name="y_value"))

    acc.each_element(b, rows, cols, store)


def build(spec: ConvIgemmFwdSpec, arch: str, *, _fault: str = "") -> KernelDef:
    """The verified kernel for spec on arch; SpecError when the arch refuses the spec."""
    if _fault not in FAULTS:
        raise ValueError(f"unknown fault '{_fault}'")
    target = get_arch(arch)
    plan = plan_conv(spec, target)
    elem = ir_type(spec.dtype)
    esize = elem_bytes(spec.dtype)
    b = Builder(spec.kernel_name(), max_workgroup_size=plan.threads)
    buffer_type = ptr(elem, "global")
    params = Params(
        input=b.param("input", buffer_type, noalias=True, readonly=True),
        weight=b.param("weight", buffer_type, noalias=True, readonly=True),
        bias=b.param("bias", buffer_type, noalias=True, readonly=True) if spec.bias else None,
        output=b.param("output", buffer_type, noalias=True, writeonly=True),
        n=b.param("n", i32),
        h=b.param("h", i32),
        w=b.param("w", i32),
        c=b.param("c", i32),
        k=b.param("k", i32),
        g=b.param("g", i32),
    )
    start = igemm_prologue(b, spec, plan, elem, params)
    pixels = b.mul(b.mul(params.n, start.ho), start.wo, name="pixels")
    kdim = mul_i32(b, start.cg, spec.taps, name="kdim")
    x_rsrc = nhwc_rsrc(b, params.input, (params.n, params.h, params.w, params.c), esize, "x_rsrc")
    w_rsrc = buffer_rsrc(b, params.weight, b.mul(params.k, kdim), esize, name="w_rsrc")
    channel0 = b.mul(start.group, start.cg, name="channel0")
    out0 = b.mul(start.group, start.kg, name="out0")
    a_gen: MatrixOperand | TapOperand
    if spec.pointwise:
        a_gen = MatrixOperand("a", x_rsrc, True, start.row0, pixels, start.cg, lead=params.c, base=channel0)
    else:
        dims = (start.ho, start.wo, params.h, params.w, params.c)
        a_gen = TapOperand(spec, x_rsrc, start.row0, pixels, dims, channel0, start.cg, kdim, plan.a.split.vec, _fault)
    b_gen = MatrixOperand("b", w_rsrc, True, start.col0, start.kg, kdim, base=b.mul(out0, kdim, name="w_base"))
    start.loop.run(b, a_gen, b_gen, kdim, lambda acc: _epilogue(b, spec, acc, params, pixels, start.kg, out0))
    kernel = b.finish()
    verify(kernel, arch=target)
    return kernel
