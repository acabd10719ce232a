"""Python builder of the conv_igemm_wgrad family (the C++ twin mirrors it function for function): the
main kernel, a user of the tile-GEMM main loop (rocke.helpers.tile_gemm) with a dense dy operand and
a filter-tap x operand, and the convert kernel (convert=1).

Main kernel: one GEMM per group: dW[M x N] = dY^T[M x Kdim] @ X~[Kdim x N] with M = K / G output
channels, N = Y * X * C / G (column nd = tap * C/G + ci, tap = ky * X + kx: the order of a KYXC filter
row), Kdim = N * Ho * Wo output pixels (NHWK order). Workgroup (x, y, z) owns columns x * bn .. and
output channels y * bm .. of group z / split_k, over the z % split_k-th share of Kdim: ceil(ceil(Kdim
/ bk) / split_k) K tiles starting at part * that * bk (the last shares may be shorter or empty).

A (a dense MatrixOperand, outer-contiguous): element (ko, p) is dy[k_begin + p][g * K/G + ko]. B
(TapInputOperand, outer-contiguous along the input channels): per copy access, once before the K
loop, the column's tap offsets (ky * dil_h - pad_h, kx * dil_w - pad_w) and channel; per K tile the
pixel p splits into (image, oh, ow) and the x element is ((img * H + ih) * W + iw) * C + g * C/G + ci
with ih = oh * stride_h + ky * dil_h - pad_h (likewise iw); a tap in the padding reads 0. The
epilogue stores dw (split_k = 1, rounded to dtype) or adds the f32 sums into the workspace with
atomics (split_k > 1), for every element inside M x N.

Convert kernel: thread t of workgroup z turns elements (z * threads + t) * vec .. + vec - 1 of the f32
workspace into dtype (dwordx4 loads of at most 4 f32, stores of the same elements).
"""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import get_arch
from rocke.helpers import (
    AccElement,
    MatrixOperand,
    TileAccumulators,
    add_i32,
    buffer_rsrc,
    ceil_div_i32,
    const_i32,
    divu_i32,
    elem_bytes,
    from_f32,
    global_id_x,
    ir_type,
    load_guarded,
    masked_offset,
    mul_i32,
    remu_i32,
    store_guarded,
    valid_if,
)
from rocke.ir import Builder, KernelDef, Value, f32, i32, ptr, verify

from ..igemm import igemm_prologue, nhwc_rsrc
from .plan import plan_wgrad
from .spec import ConvIgemmWgradSpec

FAULTS = ("", "drop_partial", "flip_taps")  # test-only broken variants (negative controls)
CONVERT_LANES = 4  # f32 elements per convert load (16 bytes)


@dataclass(frozen=True)
class Params:
    """The main kernel's parameters, in signature order (out: dw, or the f32 workspace when atomic)."""

    input: Value
    dy: Value
    out: Value
    n: Value
    h: Value
    w: Value
    c: Value
    k: Value
    g: Value


class TapInputOperand:
    """The B generator: output pixel p of the workgroup's K share (k) x column nd = tap * cg + ci
    (outer), over NHWC x. setup: the column's (ok, row offset, column offset, channel) and the access's
    first p; address: the x element of the K tile's p, valid (vec) inside the image, the share and the
    columns, else 0."""

    def __init__(self, spec: ConvIgemmWgradSpec, rsrc: Value, origin: Value, cols: Value,
                 dims: tuple[Value, Value, Value, Value, Value], in0: Value, cg: Value, k_begin: Value,
                 k_len: Value, vec: int, fault: str):
        self.spec = spec
        self.rsrc = rsrc
        self.origin = origin
        self.cols = cols
        self.dims = dims
        self.in0 = in0
        self.cg = cg
        self.k_begin = k_begin
        self.k_len = k_len
        self.vec = vec
        self.fault = fault

    def setup(self, b: Builder, outer: Value, k: Value) -> object:
        spec = self.spec
        nd = b.add(self.origin, outer, name="nd")
        ok = b.cmpi("slt", nd, self.cols, name="col_ok")
        tap = b.divu(nd, self.cg, name="tap")
        ci = b.remu(nd, self.cg, name="ci")
        if self.fault == "flip_taps":
            tap = b.sub(const_i32(b, spec.taps - 1), tap)
        ky = divu_i32(b, tap, spec.filter_x, name="ky")
        kx = remu_i32(b, tap, spec.filter_x, name="kx")
        dh = add_i32(b, mul_i32(b, ky, spec.dil_h), -spec.pad_h, name="tap_row")
        dw = add_i32(b, mul_i32(b, kx, spec.dil_w), -spec.pad_w, name="tap_col")
        channel = b.add(self.in0, ci, name="channel")
        return ok, dh, dw, channel, k

    def address(self, b: Builder, state: object, k0: Value | None) -> tuple[Value, Value]:
        assert isinstance(state, tuple)
        ok, dh, dw, channel, first = state
        spec = self.spec
        ho, wo, h, w, c = self.dims
        pl = first if k0 is None else b.add(first, k0, name="pl")
        p = b.add(self.k_begin, pl, name="p")
        ow = b.remu(p, wo, name="ow")
        rest = b.divu(p, wo)
        oh = b.remu(rest, ho, name="oh")
        img = b.divu(rest, ho, name="img")
        ih = b.add(mul_i32(b, oh, spec.stride_h), dh, name="ih")
        iw = b.add(mul_i32(b, ow, spec.stride_w), dw, name="iw")
        rows = b.cmpi("ult", ih, h)
        cols = b.cmpi("ult", iw, w)
        seen = b.and_(ok, b.and_(rows, cols), name="tap_ok")
        live = b.and_(seen, b.cmpi("slt", pl, self.k_len), name="b_ok")
        line = b.add(b.mul(img, h), ih)
        spot = b.add(b.mul(line, w), iw)
        index = b.add(b.mul(spot, c), channel, name="b_index")
        return index, valid_if(b, live, const_i32(b, self.vec))


def _epilogue(b: Builder, spec: ConvIgemmWgradSpec, acc: TileAccumulators, params: Params, kg: Value,
              cols: Value, out0: Value, part: Value, fault: str) -> None:
    """out[(out0 + row) * cols + col] = acc (split_k = 1) or += acc (atomics) inside kg x cols."""
    out_t = ir_type(spec.dtype)
    esize = elem_bytes(spec.dtype)
    out_rsrc = None if spec.atomic else buffer_rsrc(b, params.out, b.mul(params.k, cols), esize, name="dw_rsrc")
    rows, columns = acc.coords(b)

    def store(e: AccElement) -> None:
        ok = e.inside(b, kg, cols)
        line = b.mul(b.add(out0, e.row), cols)
        index = b.add(line, e.col, name="dw_index")
        if out_rsrc is not None:
            offset = masked_offset(b, ok, index, esize)
            b.buffer_store(out_rsrc, offset, from_f32(b, e.value, out_t, 1, name="dw_value"))
            return
        if fault == "drop_partial":
            ok = b.and_(ok, b.cmpi("ne", part, const_i32(b, spec.split_k - 1)))

        def add() -> list[Value]:
            b.atomic_add_f32(params.out, index, e.value)
            return []

        b.if_(ok, add)

    acc.each_element(b, rows, columns, store)


def _build_main(spec: ConvIgemmWgradSpec, arch: str, fault: str) -> KernelDef:
    target = get_arch(arch)
    plan = plan_wgrad(spec, target)
    elem = ir_type(spec.dtype)
    esize = elem_bytes(spec.dtype)
    b = Builder(spec.kernel_name(), max_workgroup_size=plan.threads)
    buffer_type = ptr(elem, "global")
    params = Params(
        input=b.param("input", buffer_type, noalias=True, readonly=True),
        dy=b.param("dy", buffer_type, noalias=True, readonly=True),
        out=(b.param("workspace", ptr(f32, "global"), noalias=True) if spec.atomic
             else b.param("dw", buffer_type, noalias=True, writeonly=True)),
        n=b.param("n", i32),
        h=b.param("h", i32),
        w=b.param("w", i32),
        c=b.param("c", i32),
        k=b.param("k", i32),
        g=b.param("g", i32),
    )
    start = igemm_prologue(b, spec, plan, elem, params, spec.split_k)
    assert start.part is not None  # split_k >= 1: z holds the group and the split-K part
    pixels = b.mul(b.mul(params.n, start.ho), start.wo, name="pixels")
    cols = mul_i32(b, start.cg, spec.taps, name="cols")
    share = mul_i32(b, ceil_div_i32(b, ceil_div_i32(b, pixels, spec.bk), spec.split_k), spec.bk, name="share")
    k_begin = b.mul(start.part, share, name="k_begin")
    k_len = b.maxs(b.mins(b.sub(pixels, k_begin), share), const_i32(b, 0), name="k_len")
    x_rsrc = nhwc_rsrc(b, params.input, (params.n, params.h, params.w, params.c), esize, "x_rsrc")
    dy_rsrc = buffer_rsrc(b, params.dy, b.mul(pixels, params.k), esize, name="dy_rsrc")
    in0 = b.mul(start.group, start.cg, name="in0")
    out0 = b.mul(start.group, start.kg, name="out0")
    dy_base = b.add(b.mul(k_begin, params.k), out0, name="dy_base")
    a_gen = MatrixOperand("a", dy_rsrc, False, start.row0, start.kg, k_len, lead=params.k, base=dy_base)
    dims = (start.ho, start.wo, params.h, params.w, params.c)
    b_gen = TapInputOperand(spec, x_rsrc, start.col0, cols, dims, in0, start.cg, k_begin, k_len, plan.b.split.vec,
                            fault)
    start.loop.run(b, a_gen, b_gen, k_len,
                   lambda acc: _epilogue(b, spec, acc, params, start.kg, cols, out0, start.part, fault))
    kernel = b.finish()
    verify(kernel, arch=target)
    return kernel


def _build_convert(spec: ConvIgemmWgradSpec, arch: str) -> KernelDef:
    target = get_arch(arch)
    threads = spec.threads
    out_t = ir_type(spec.dtype)
    b = Builder(spec.kernel_name(), max_workgroup_size=threads)
    workspace = b.param("workspace", ptr(f32, "global"), noalias=True, readonly=True)
    dw = b.param("dw", ptr(out_t, "global"), noalias=True, writeonly=True)
    elements = b.param("elements", i32)
    first = mul_i32(b, global_id_x(b, threads), spec.vec, name="first")
    ws_rsrc = buffer_rsrc(b, workspace, elements, 4, name="ws_rsrc")
    dw_rsrc = buffer_rsrc(b, dw, elements, elem_bytes(spec.dtype), name="dw_rsrc")
    lanes = min(spec.vec, CONVERT_LANES)
    for part in range(0, spec.vec, lanes):
        at = add_i32(b, first, part, name="at")
        valid = b.sub(elements, at, name="valid")
        value = load_guarded(b, ws_rsrc, at, valid, f32, lanes, name="sums")
        store_guarded(b, dw_rsrc, at, valid, from_f32(b, value, out_t, lanes, name="dw_value"), out_t, lanes)
    kernel = b.finish()
    verify(kernel, arch=target)
    return kernel


def build(spec: ConvIgemmWgradSpec, arch: str, *, _fault: str = "") -> KernelDef:
    """The verified kernel for spec on arch (the convert kernel when spec.convert); SpecError when the
    arch refuses the spec."""
    if _fault not in FAULTS:
        raise ValueError(f"unknown fault '{_fault}'")
    if spec.convert:
        plan_wgrad(spec, get_arch(arch))  # the pair shares the main kernel's arch rules
        return _build_convert(spec, arch)
    return _build_main(spec, arch, _fault)
