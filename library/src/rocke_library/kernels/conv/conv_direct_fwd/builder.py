"""Python builder of the conv_direct_fwd family (the C++ twin mirrors it function for function).

Workgroup (x, y, z) computes output pixels x * tile_p .. (NHWC order over N x Ho x Wo) times
channels y * tile_k .. of group z (depthwise: of all C channels, z = 0). Thread t owns thread_p
pixels, strided by p_threads = tile_p / thread_p so that neighbouring threads read neighbouring
pixels, times thread_k consecutive channels, and keeps thread_p * thread_k f32 accumulators.

Grouped kernel: an scf.for over the filter taps, inside it an scf.for over the group's input
channels in steps of vec; per step one vector load per pixel and per channel (its weight row
w[k][ty][tx][c ..]), then vec FMAs per accumulator. Depthwise kernel (groups = C = K): per tap
one scalar weight load per channel and thread_k / vec input vectors per pixel.

Bounds: taps in the padding and pixels past N x Ho x Wo get the out-of-range buffer offset (they
read zero); so do the weights (and bias) of channels past the group, so their accumulators stay
0 and are never stored. Offsets are masked once per tap; adding the channel step to a masked
offset keeps it past the end of every buffer the launch contract allows. The epilogue adds the
bias, applies relu, rounds to dtype and stores each pixel's channels as vectors of up to 16 bytes
(element by element at the group's channel edge).
"""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import ArchTarget, get_arch
from rocke.families.spec import check_wave_multiple
from rocke.helpers import (
    add_i32,
    buffer_rsrc,
    const_i32,
    divu_i32,
    elem_bytes,
    f32_const,
    from_f32,
    ir_type,
    masked_offset,
    mul_i32,
    relu,
    remu_i32,
    store_guarded,
    to_f32,
    valid_if,
    vector_type,
)
from rocke.ir import Builder, KernelDef, ScalarType, Value, i32, ptr, verify

from ..pixels import Pixel, inside, out_dims, pixel
from .spec import ConvDirectFwdSpec

FAULTS = ("", "no_pad_mask", "skip_last_tap")  # test-only broken variants (negative controls)
MAX_STORE_BYTES = 16


def check_arch(spec: ConvDirectFwdSpec, target: ArchTarget) -> None:
    """The arch-dependent rules (SpecError)."""
    threads = spec.threads
    what = f"(tile_p / thread_p) * (tile_k / thread_k) = {threads} threads; "
    check_wave_multiple(spec, "tile_p", threads, target, what)


def store_width(spec: ConvDirectFwdSpec) -> int:
    """Channels per output store: thread_k, at most 16 bytes."""
    return min(spec.thread_k, MAX_STORE_BYTES // elem_bytes(spec.dtype))


@dataclass(frozen=True)
class Sizes:
    """The problem as device values. Depthwise: cg is None (1) and kg is c."""

    h: Value
    w: Value
    c: Value
    kout: Value  # output channels (row length of the output)
    cg: Value | None  # input channels per group
    kg: Value  # output channels per group
    wc: Value  # W * C: input elements of one image row


@dataclass(frozen=True)
class Thread:
    """What one thread owns."""

    pixels: list[Pixel]
    rows: list[Value]  # output element index of each pixel's channel 0
    k_first: Value  # first channel of the thread inside its group
    k_ok: list[Value]  # per channel: inside the group
    k_abs: list[Value]  # per channel: absolute output channel


@dataclass(frozen=True)
class Params:
    """The kernel's parameters, in signature order (bias only with spec.bias, k and g only for a
    grouped kernel)."""

    input: Value
    weight: Value
    bias: Value | None
    output: Value
    n: Value
    h: Value
    w: Value
    c: Value
    k: Value | None
    g: Value | None


def _tap_offsets(b: Builder, spec: ConvDirectFwdSpec, tap: Value) -> tuple[Value | None, Value | None]:
    """(ty * dil_h, tx * dil_w) of a device tap index; None for a filter dimension of size 1."""
    if spec.filter_x == 1:
        return mul_i32(b, tap, spec.dil_h), None
    if spec.filter_y == 1:
        return None, mul_i32(b, tap, spec.dil_w)
    ty = divu_i32(b, tap, spec.filter_x)
    tx = remu_i32(b, tap, spec.filter_x)
    dy = mul_i32(b, ty, spec.dil_h)
    dx = mul_i32(b, tx, spec.dil_w)
    return dy, dx


def _input_offsets(b: Builder, spec: ConvDirectFwdSpec, th: Thread, sizes: Sizes, tap: Value, esize: int,
                   fault: str) -> list[Value]:
    """Per pixel: the byte offset of its first vector under this tap (out of range in the padding)."""
    dy, dx = _tap_offsets(b, spec, tap)
    delta: Value | None = None
    if dy is not None:
        delta = b.mul(dy, sizes.wc)
    if dx is not None:
        across = b.mul(dx, sizes.c)
        delta = across if delta is None else b.add(delta, across)
    offsets = []
    for pix in th.pixels:
        hi = pix.row if dy is None else b.add(pix.row, dy)
        wi = pix.col if dx is None else b.add(pix.col, dx)
        ok = pix.ok if fault == "no_pad_mask" else inside(b, pix, hi, wi, sizes.h, sizes.w)
        index = pix.base if delta is None else b.add(pix.base, delta)
        offsets.append(masked_offset(b, ok, index, esize))
    return offsets


def _lanes_of(b: Builder, value: Value, lanes: int) -> list[Value]:
    """The scalars of a vector (the value itself for one lane)."""
    if lanes == 1:
        return [value]
    return [b.extract(value, lane) for lane in range(lanes)]


def _grouped_step(b: Builder, spec: ConvDirectFwdSpec, in_rsrc: Value, w_rsrc: Value, x_offs: list[Value],
                  w_offs: list[Value], c0: Value, accs: list[Value], elem: ScalarType, esize: int) -> list[Value]:
    """One vec-channel step: load every pixel's and every channel's vector, then the FMAs."""
    lanes = spec.vec
    vtype = vector_type(elem, lanes)
    step = mul_i32(b, c0, esize, name="c_bytes")
    xs = []
    for off in x_offs:
        raw = b.buffer_load(in_rsrc, b.add(off, step), vtype, name="x_vals")
        xs.append(to_f32(b, raw, elem, lanes, name="x_f32"))
    ws = []
    for off in w_offs:
        raw = b.buffer_load(w_rsrc, b.add(off, step), vtype, name="w_vals")
        ws.append(to_f32(b, raw, elem, lanes, name="w_f32"))
    x_lanes = []
    for x in xs:
        x_lanes.append(_lanes_of(b, x, lanes))
    w_lanes = []
    for wv in ws:
        w_lanes.append(_lanes_of(b, wv, lanes))
    out = list(accs)
    for i in range(spec.thread_p):
        for j in range(spec.thread_k):
            acc = out[i * spec.thread_k + j]
            for lane in range(lanes):
                acc = b.fma(x_lanes[i][lane], w_lanes[j][lane], acc, name="acc")
            out[i * spec.thread_k + j] = acc
    return out


def _depthwise_tap(b: Builder, spec: ConvDirectFwdSpec, in_rsrc: Value, w_rsrc: Value, x_offs: list[Value],
                   w_offs: list[Value], accs: list[Value], elem: ScalarType, esize: int) -> list[Value]:
    """One tap of the depthwise kernel: a weight per channel, thread_k / vec vectors per pixel."""
    lanes = spec.vec
    vtype = vector_type(elem, lanes)
    ws = []
    for off in w_offs:
        raw = b.buffer_load(w_rsrc, off, elem, name="w_vals")
        ws.append(to_f32(b, raw, elem, 1, name="w_f32"))
    out = list(accs)
    for i in range(len(x_offs)):
        for v in range(spec.thread_k // lanes):
            raw = b.buffer_load(in_rsrc, add_i32(b, x_offs[i], v * lanes * esize), vtype, name="x_vals")
            xv = _lanes_of(b, to_f32(b, raw, elem, lanes, name="x_f32"), lanes)
            for lane in range(lanes):
                slot = i * spec.thread_k + v * lanes + lane
                out[slot] = b.fma(xv[lane], ws[v * lanes + lane], out[slot], name="acc")
    return out


def _epilogue(b: Builder, spec: ConvDirectFwdSpec, th: Thread, sizes: Sizes, params: Params,
              out_rsrc: Value, accs: list[Value], elem: ScalarType, esize: int) -> None:
    """bias, relu, rounding and the guarded stores of every pixel's channels."""
    biases: list[Value] = []
    if spec.bias:
        assert params.bias is not None
        bias_rsrc = buffer_rsrc(b, params.bias, sizes.kout, esize, name="bias_rsrc")
        for j in range(len(th.k_ok)):
            raw = b.buffer_load(bias_rsrc, masked_offset(b, th.k_ok[j], th.k_abs[j], esize), elem, name="bias")
            biases.append(to_f32(b, raw, elem, 1, name="bias_f32"))
    width = store_width(spec)
    left = b.sub(sizes.kg, th.k_first, name="k_left")  # channels of the group from the thread's first on
    for i in range(len(th.pixels)):
        valid = valid_if(b, th.pixels[i].ok, left)
        for s in range(0, spec.thread_k, width):
            values = []
            for j in range(s, s + width):
                value = accs[i * spec.thread_k + j]
                if spec.bias:
                    value = b.add(value, biases[j])
                if spec.relu:
                    value = relu(b, value, 1)
                values.append(value)
            packed = values[0]
            if width > 1:
                packed = b.splat(values[0], width)
                for lane in range(1, width):
                    packed = b.insert(packed, values[lane], lane)
            result = from_f32(b, packed, elem, width, name="y_value")
            index = add_i32(b, th.rows[i], s)
            left_here = add_i32(b, valid, -s)
            store_guarded(b, out_rsrc, index, left_here, result, elem, width)


def build(spec: ConvDirectFwdSpec, arch: str, *, _fault: str = "") -> KernelDef:
    """The verified kernel for spec on arch; SpecError when the arch refuses the spec."""
    if _fault not in FAULTS:
        raise ValueError(f"unknown fault '{_fault}'")
    target = get_arch(arch)
    check_arch(spec, target)
    elem = ir_type(spec.dtype)
    esize = elem_bytes(spec.dtype)
    b = Builder(spec.kernel_name(), max_workgroup_size=spec.threads)
    params = Params(
        input=b.param("input", ptr(elem, "global"), noalias=True, readonly=True),
        weight=b.param("weight", ptr(elem, "global"), noalias=True, readonly=True),
        bias=b.param("bias", ptr(elem, "global"), noalias=True, readonly=True) if spec.bias else None,
        output=b.param("output", ptr(elem, "global"), noalias=True, writeonly=True),
        n=b.param("n", i32),
        h=b.param("h", i32),
        w=b.param("w", i32),
        c=b.param("c", i32),
        k=None if spec.depthwise else b.param("k", i32),
        g=None if spec.depthwise else b.param("g", i32),
    )
    n = params.n
    h = params.h
    w = params.w
    c = params.c

    ho, wo = out_dims(b, spec, h, w)
    total = b.mul(b.mul(n, ho), wo, name="pixels")
    wc = b.mul(w, c, name="wc")
    group_k: Value | None = None
    group_c: Value | None = None
    if spec.depthwise:
        sizes = Sizes(h, w, c, c, None, c, wc)
    else:
        grp = b.block_id_z(name="grp")
        assert params.k is not None and params.g is not None
        cg = b.divu(c, params.g, name="cg")
        kg = b.divu(params.k, params.g, name="kg")
        sizes = Sizes(h, w, c, params.k, cg, kg, wc)
        group_k = b.mul(grp, kg, name="grp_k")
        group_c = b.mul(grp, cg, name="grp_c")
    tid = b.thread_id_x(name="tid")
    k_idx = remu_i32(b, tid, spec.k_threads)
    p_idx = divu_i32(b, tid, spec.k_threads)
    k_tile = mul_i32(b, b.block_id_y(), spec.tile_k)
    k_first = b.add(k_tile, mul_i32(b, k_idx, spec.thread_k), name="k_first")
    p_first = b.add(mul_i32(b, b.block_id_x(), spec.tile_p), p_idx, name="p_first")
    k_base = k_first if group_k is None else b.add(group_k, k_first)
    channel0 = k_first if group_c is None else group_c
    pixels = []
    rows = []
    for i in range(spec.thread_p):
        m = add_i32(b, p_first, i * spec.p_threads)
        pixels.append(pixel(b, spec, m, total, (ho, wo, h, w, c), channel0))
        rows.append(b.add(b.mul(m, sizes.kout), k_base, name="y_row"))
    k_ok = []
    k_abs = []
    for j in range(spec.thread_k):
        k_ok.append(b.cmpi("slt", add_i32(b, k_first, j), sizes.kg, name="k_ok"))
        k_abs.append(add_i32(b, k_base, j))
    th = Thread(pixels, rows, k_first, k_ok, k_abs)

    in_rsrc = buffer_rsrc(b, params.input, b.mul(b.mul(n, h), wc), esize, name="in_rsrc")
    # weight rows: taps * cg elements per output channel (depthwise: taps)
    row_len = const_i32(b, spec.taps) if sizes.cg is None else mul_i32(b, sizes.cg, spec.taps)
    w_rsrc = buffer_rsrc(b, params.weight, b.mul(sizes.kout, row_len), esize, name="w_rsrc")
    out_rsrc = buffer_rsrc(b, params.output, b.mul(total, sizes.kout), esize, name="y_rsrc")
    w_rows = []
    for j in range(len(th.k_ok)):
        w_rows.append(masked_offset(b, th.k_ok[j], b.mul(th.k_abs[j], row_len), esize))
    tap_bytes = const_i32(b, esize) if sizes.cg is None else mul_i32(b, sizes.cg, esize)
    zero = f32_const(b, 0.0, 1, name="acc")
    accs0 = [zero] * (spec.thread_p * spec.thread_k)
    acc_names = ["acc"] * len(accs0)
    taps = spec.taps - 1 if _fault == "skip_last_tap" else spec.taps

    def tap_body(tap: Value, *accs: Value) -> list[Value]:
        x_offs = _input_offsets(b, spec, th, sizes, tap, esize, _fault)
        w_tap = b.mul(tap, tap_bytes, name="w_tap")
        w_offs = [b.add(row, w_tap) for row in w_rows]
        if sizes.cg is None:
            return _depthwise_tap(b, spec, in_rsrc, w_rsrc, x_offs, w_offs, list(accs), elem, esize)

        def channel_body(c0: Value, *inner: Value) -> list[Value]:
            return _grouped_step(b, spec, in_rsrc, w_rsrc, x_offs, w_offs, c0, list(inner), elem, esize)

        c_start = const_i32(b, 0)
        c_step = const_i32(b, spec.vec)
        return b.for_(c_start, sizes.cg, c_step, list(accs), channel_body, names=acc_names, iv_name="c0")

    tap_start = const_i32(b, 0)
    tap_end = const_i32(b, taps)
    tap_step = const_i32(b, 1)
    accs = b.for_(tap_start, tap_end, tap_step, accs0, tap_body, names=acc_names, iv_name="tap")
    _epilogue(b, spec, th, sizes, params, out_rsrc, accs, elem, esize)
    kernel = b.finish()
    verify(kernel, arch=target)
    return kernel
