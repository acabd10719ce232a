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
    MatrixOperand,
    TileAccumulators,
    TileGemm,
    add_i32,
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

from ..pixels import Pixel, inside, out_dims, pixel
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
    plan = acc.plan
    op = plan.op
    out_t = ir_type(spec.dtype)
    esize = elem_bytes(spec.dtype)
    y_rsrc = buffer_rsrc(b, params.output, b.mul(pixels, params.k), esize, name="y_rsrc")
    rows, cols = acc.coords(b)
    bias: dict[tuple[int, int], Value] = {}
    if spec.bias:
        assert params.bias is not None
        bias_rsrc = buffer_rsrc(b, params.bias, params.k, esize, name="bias_rsrc")
        for rn in range(plan.rep_n):
            for offset in plan.c_col.slot_offsets:
                if (rn, offset) not in bias:
                    col = add_i32(b, cols[rn], offset)
                    raw = load_guarded(b, bias_rsrc, b.add(out0, col), b.sub(kg, col), out_t, 1, name="bias")
                    bias[(rn, offset)] = to_f32(b, raw, out_t, 1)
    for rm in range(plan.rep_m):
        for rn in range(plan.rep_n):
            value_v = acc.accs[rm * plan.rep_n + rn]
            for s in range(op.c.length):
                row = add_i32(b, rows[rm], plan.c_row.slot_offsets[s])
                col = add_i32(b, cols[rn], plan.c_col.slot_offsets[s])
                value = b.extract(value_v, s)
                if spec.bias:
                    value = b.add(value, bias[(rn, plan.c_col.slot_offsets[s])])
                if spec.relu:
                    value = relu(b, value, 1)
                ok = b.and_(b.cmpi("slt", row, pixels), b.cmpi("slt", col, kg))
                offset = masked_offset(b, ok, b.add(b.mul(row, params.k), b.add(out0, col)), esize)
                b.buffer_store(y_rsrc, offset, from_f32(b, value, out_t, 1, name="y_value"))


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
    loop = TileGemm(b, plan, elem)
    row0 = mul_i32(b, b.block_id_y(), spec.bm, name="row0")
    col0 = mul_i32(b, b.block_id_x(), spec.bn, name="col0")
    loop.place(b, row0, col0)
    group = b.block_id_z(name="group")
    cg = b.divu(params.c, params.g, name="cg")
    kg = b.divu(params.k, params.g, name="kg")
    ho, wo = out_dims(b, spec, params.h, params.w)
    pixels = b.mul(b.mul(params.n, ho), wo, name="pixels")
    kdim = mul_i32(b, cg, spec.taps, name="kdim")
    x_elems = b.mul(b.mul(b.mul(params.n, params.h), params.w), params.c)
    x_rsrc = buffer_rsrc(b, params.input, x_elems, esize, name="x_rsrc")
    w_rsrc = buffer_rsrc(b, params.weight, b.mul(params.k, kdim), esize, name="w_rsrc")
    channel0 = b.mul(group, cg, name="channel0")
    out0 = b.mul(group, kg, name="out0")
    a_gen: MatrixOperand | TapOperand
    if spec.pointwise:
        a_gen = MatrixOperand("a", x_rsrc, True, row0, pixels, cg, lead=params.c, base=channel0)
    else:
        dims = (ho, wo, params.h, params.w, params.c)
        a_gen = TapOperand(spec, x_rsrc, row0, pixels, dims, channel0, cg, kdim, plan.a.split.vec, _fault)
    b_gen = MatrixOperand("b", w_rsrc, True, col0, kg, kdim, base=b.mul(out0, kdim, name="w_base"))
    loop.run(b, a_gen, b_gen, kdim, lambda acc: _epilogue(b, spec, acc, params, pixels, kg, out0))
    kernel = b.finish()
    verify(kernel, arch=target)
    return kernel
