"""A corpus of small, meaningful kernels that together use every op of ops.toml.

Later engines reuse it: the lowerer and simulator tests run these kernels, parity tests compare the
engines on them. Each builder's docstring states what the kernel computes and how it is launched
(1-D launches unless stated; gid = block_id_x * block_dim_x + thread_id_x).

    sample_kernels() -> {name: KernelDef}     fresh, verified kernels with canonical ids
    sample_needs()   -> {name: KernelNeeds}   features and MMA op_ids each kernel needs
"""

from __future__ import annotations

from collections.abc import Callable

from .builder import Builder
from .core import KernelDef, Value
from .needs import KernelNeeds, kernel_needs
from .types import bf16, f16, f32, i16, i32, i64, ptr, vec

MFMA_OP_ID = "mfma_f32_16x16x16_f16"
WMMA_OP_ID = "wmma_f32_16x16x16_f16_gfx11"


def _gid(b: Builder) -> Value:
    return b.add(
        b.mul(b.block_id_x(name="bid"), b.block_dim_x(name="bdim")), b.thread_id_x(name="tid"), name="gid"
    )


def axpy() -> KernelDef:
    """y[i] = a * x[i] + y[i] for i < n (f32)."""
    b = Builder("axpy", max_workgroup_size=256)
    x = b.param("x", ptr(f32, "global"), noalias=True, readonly=True, align=16)
    y = b.param("y", ptr(f32, "global"), noalias=True, align=16)
    a = b.param("a", f32)
    n = b.param("n", i32)
    gid = _gid(b)

    def then() -> None:
        xv = b.load(x, gid, name="xv")
        yv = b.load(y, gid, name="yv")
        b.store(y, gid, b.fma(a, xv, yv, name="r"))

    b.if_(b.cmpi("slt", gid, n, name="in_range"), then)
    return b.finish()


def vec_ops() -> KernelDef:
    """For each group g < groups of 4 halves: w = reverse(truncf(extf(x[4g:4g+4]) * scale));
    y[4g:4g+4] = w; bits[2g:2g+2] = w as two i32; fbits[g] = scale's bits as i32."""
    b = Builder("vec_ops", max_workgroup_size=128)
    x = b.param("x", ptr(f16, "global"), noalias=True, readonly=True, align=8)
    y = b.param("y", ptr(f16, "global"), noalias=True, align=8)
    bits = b.param("bits", ptr(i32, "global"), noalias=True, align=8)
    fbits = b.param("fbits", ptr(i32, "global"), noalias=True)
    scale = b.param("scale", f32)
    groups = b.param("groups", i32)
    gid = _gid(b)

    def then() -> None:
        base = b.mul(gid, b.const(4, i32), name="base")
        halves = b.load(x, base, lanes=4, align=8, name="halves")
        wide = b.extf(halves, vec(f32, 4), name="wide")
        scaled = b.mul(wide, b.splat(scale, 4, name="scale4"), name="scaled")
        narrow = b.truncf(scaled, vec(f16, 4), name="narrow")
        rev = b.splat(b.const(0.0, f16), 4, name="rev")
        for lane in range(4):  # host-time loop: unrolled into 4 extract/insert pairs
            rev = b.insert(rev, b.extract(narrow, lane), 3 - lane, name=f"rev{lane}")
        b.store(y, base, rev, align=8)
        b.store(bits, b.mul(gid, b.const(2, i32)), b.bitcast(rev, vec(i32, 2), name="words"), align=8)
        b.store(fbits, gid, b.bitcast(scale, i32, name="scale_bits"))

    b.if_(b.cmpi("slt", gid, groups), then)
    return b.finish()


def int_ops() -> KernelDef:
    """Every integer op on a[i], b[i] (i < n), folded with wrapping adds into out[i] (i32);
    out64[i] = sext(a) + zext(b); outf[i] = float(a) + float(unsigned b)."""
    b = Builder("int_ops", max_workgroup_size=64)
    pa = b.param("a", ptr(i32, "global"), noalias=True, readonly=True)
    pb = b.param("b", ptr(i32, "global"), noalias=True, readonly=True)
    out = b.param("out", ptr(i32, "global"), noalias=True, writeonly=True)
    out64 = b.param("out64", ptr(i64, "global"), noalias=True, writeonly=True)
    outf = b.param("outf", ptr(f32, "global"), noalias=True, writeonly=True)
    n = b.param("n", i32)
    gid = _gid(b)

    def then() -> None:
        av = b.load(pa, gid, name="av")
        bv = b.load(pb, gid, name="bv")
        nz = b.or_(bv, b.const(1, i32), name="nonzero")  # odd, so never zero
        amount = b.and_(bv, b.const(31, i32), name="amount")
        terms = [
            b.divs(av, nz),
            b.divu(av, nz),
            b.rems(av, nz),
            b.remu(av, nz),
            b.shl(av, amount),
            b.shrs(av, amount),
            b.shru(av, amount),
            b.xor_(av, bv),
            b.sub(av, bv),
            b.mul(av, bv),
            b.mins(av, bv),
            b.maxs(av, bv),
            b.minu(av, bv),
            b.maxu(av, bv),
            b.select(b.cmpi("ult", av, bv), b.const(-7, i32), b.const(0xFFFF, i32)),
            b.exts(b.trunc(av, i16, name="low16"), i32),
        ]
        total = terms[0]
        for term in terms[1:]:
            total = b.add(total, term)
        fa = b.sitofp(av, f32, name="fa")
        fb = b.uitofp(bv, f32, name="fb")
        total = b.add(total, b.fptosi(b.mul(fa, b.const(0.5, f32)), i32), name="total")
        total = b.add(total, b.fptoui(b.mul(fb, b.const(0.25, f32)), i32), name="total")
        b.store(out, gid, total)
        b.store(out64, gid, b.add(b.exts(av, i64), b.extu(bv, i64), name="wide"))
        b.store(outf, gid, b.add(fa, fb))

    b.if_(b.cmpi("slt", gid, n), then)
    return b.finish()


def float_math() -> KernelDef:
    """Every float op, for i < n, on x[i] (f32), h[i] (f16), g[i] (bf16), with m = max(x, -x) + 1:
    t = exp2(min(x, 8)) + log2(m) + rcp(m) + sqrt(m) + rsqrt(m) + h / m + remf(g, m);
    y[i] = x > 0 ? t : t * -0.5 + 1; yh[i] = f16(max(min(h, g), x - h)); yg[i] = bf16(x * 2 - h)."""
    b = Builder("float_math", max_workgroup_size=128, waves_per_eu=2)
    px = b.param("x", ptr(f32, "global"), noalias=True, readonly=True, align=4)
    ph = b.param("h", ptr(f16, "global"), noalias=True, readonly=True, align=2)
    pg = b.param("g", ptr(bf16, "global"), noalias=True, readonly=True, align=2)
    py = b.param("y", ptr(f32, "global"), noalias=True)
    pyh = b.param("yh", ptr(f16, "global"), noalias=True)
    pyg = b.param("yg", ptr(bf16, "global"), noalias=True)
    n = b.param("n", i32)
    gid = _gid(b)

    def then() -> None:
        xv = b.load(px, gid, name="xv")
        hv = b.extf(b.load(ph, gid), f32, name="hv")
        gv = b.extf(b.load(pg, gid), f32, name="gv")
        one = b.const(1.0, f32)
        mag = b.add(b.maxf(xv, b.negf(xv)), one, name="mag")  # |x| + 1 > 0
        terms = [
            b.exp2(b.minf(xv, b.const(8.0, f32))),
            b.log2(mag),
            b.rcp(mag),
            b.sqrt(mag),
            b.rsqrt(mag),
            b.divf(hv, mag),
            b.remf(gv, mag),
        ]
        total = terms[0]
        for term in terms[1:]:
            total = b.add(total, term)
        positive = b.cmpf("ogt", xv, b.const(0.0, f32), name="positive")
        total = b.select(positive, total, b.fma(total, b.const(-0.5, f32), one), name="total")
        b.store(py, gid, total)
        b.store(pyh, gid, b.truncf(b.maxf(b.minf(hv, gv), b.sub(xv, hv)), f16))
        b.store(pyg, gid, b.truncf(b.sub(b.mul(xv, b.const(2.0, f32)), hv), bf16))

    b.if_(b.cmpi("slt", gid, n), then)
    return b.finish()


def xlane_ops() -> KernelDef:
    """One workgroup of block_dim_x threads; per thread t (lane l, wave w):
    out[5t+0] = x[t ^ 1 within its 32-lane half] (ds_swizzle xor 1), out[5t+1] = x of lane l ^ 1 via
    ds_bpermute, out[5t+2] = x of the wave's first lane, out[5t+3] = x of lane l ^ 2 (shuffle_xor),
    out[5t+4] = x[t ^ 1] through LDS, ordered within the wave by a wave LDS fence;
    ids[2t] = w * wave_size + l (== t), ids[2t+1] = wave_size."""
    b = Builder("xlane_ops", max_workgroup_size=256)
    px = b.param("x", ptr(f32, "global"), noalias=True, readonly=True)
    out = b.param("out", ptr(f32, "global"), noalias=True)
    ids = b.param("ids", ptr(i32, "global"), noalias=True)
    tid = b.thread_id_x(name="tid")
    lane = b.lane_id(name="lane")
    wave = b.wave_id(name="wave")
    wsize = b.wave_size(name="wsize")
    xv = b.load(px, tid, name="xv")
    swz = b.ds_swizzle(xv, 0x041F, name="swz")  # bitmask mode: and 0x1F, or 0, xor 1
    addr = b.shl(b.xor_(lane, b.const(1, i32)), b.const(2, i32), name="addr")
    perm = b.ds_bpermute(addr, xv, name="perm")
    first = b.readfirstlane(xv, name="first")
    shuf = b.shuffle_xor(xv, 2, name="shuf")
    swap = b.lds_alloc(f32, 256, name="swap")
    b.lds_store(swap, tid, xv)
    b.wave_lds_fence()  # t ^ 1 is a lane of the same wave
    near = b.lds_load(swap, b.xor_(tid, b.const(1, i32)), name="near")
    base = b.mul(tid, b.const(5, i32), name="base")
    for k, value in enumerate((swz, perm, first, shuf, near)):
        b.store(out, b.add(base, b.const(k, i32)), value)
    two_t = b.mul(tid, b.const(2, i32))
    b.store(ids, two_t, b.add(b.mul(wave, wsize), lane, name="flat"))
    b.store(ids, b.add(two_t, b.const(1, i32)), wsize)
    return b.finish()


def block_reduce() -> KernelDef:
    """out[0] += sum(x[0:n]) (f32, atomic). Launch: block_dim_x a multiple of 32, up to 256.
    Each 32-lane group reduces with shuffle_xor, group sums meet in LDS, thread 0 adds them."""
    b = Builder("block_reduce", max_workgroup_size=256)
    px = b.param("x", ptr(f32, "global"), noalias=True, readonly=True)
    out = b.param("out", ptr(f32, "global"))
    n = b.param("n", i32)
    partial = b.lds_alloc(f32, 8, align=16, name="partial")
    tid = b.thread_id_x(name="tid")
    gid = _gid(b)
    zero = b.const(0.0, f32, name="zero")
    (value,) = b.if_(b.cmpi("slt", gid, n), lambda: [b.load(px, gid)], lambda: [zero], names=["value"])
    for mask in (16, 8, 4, 2, 1):
        value = b.add(value, b.shuffle_xor(value, mask), name="value")
    c32 = b.const(32, i32)
    group = b.divu(tid, c32, name="group")

    def leader() -> None:
        b.lds_store(partial, group, value)

    b.if_(b.cmpi("eq", b.remu(tid, c32), b.const(0, i32)), leader)
    b.barrier()

    def first_thread() -> None:
        groups = b.divu(b.add(b.block_dim_x(), b.const(31, i32)), c32, name="groups")

        def body(g: Value, acc: Value) -> list[Value]:
            return [b.add(acc, b.lds_load(partial, g), name="acc")]

        (total,) = b.for_(b.const(0, i32), groups, b.const(1, i32), [zero], body, names=["acc"], iv_name="g")
        b.atomic_add_f32(out, b.const(0, i32), total)

    b.if_(b.cmpi("eq", tid, b.const(0, i32)), first_thread)
    return b.finish()


def buffer_copy() -> KernelDef:
    """dst[16 bytes at 16 * gid] = src[same] through raw buffers over nbytes bytes (out of range
    reads give zero, writes are dropped); scaled[gid] = lut[gid % 16 + 1] * 2 via a constant pointer."""
    b = Builder("buffer_copy", max_workgroup_size=64)
    src = b.param("src", ptr(i32, "global"), readonly=True, align=16)
    dst = b.param("dst", ptr(i32, "global"), writeonly=True, align=16)
    lut = b.param("lut", ptr(f32, "constant"), readonly=True)
    scaled = b.param("scaled", ptr(f32, "global"))
    nbytes = b.param("nbytes", i32)
    gid = _gid(b)
    rsrc_in = b.make_rsrc(src, nbytes, name="rsrc_in")
    rsrc_out = b.make_rsrc(dst, nbytes, name="rsrc_out")
    offset = b.mul(gid, b.const(16, i32), name="offset")
    data = b.buffer_load(rsrc_in, offset, vec(i32, 4), name="data")
    b.waitcnt(vmcnt=0)
    b.buffer_store(rsrc_out, offset, data)
    shifted = b.ptr_add(lut, b.const(1, i32), name="lut1")
    entry = b.load(shifted, b.remu(gid, b.const(16, i32)), name="entry")
    b.store(scaled, gid, b.mul(entry, b.const(2.0, f32)))
    b.waitcnt(vmcnt=-1, lgkmcnt=0)
    return b.finish()


def nested_control() -> KernelDef:
    """3-D launch over a grid of 2 x 2 x Z blocks; (gx, gy, gz) are global thread coordinates and
    flat = (gz * 2 dy + gy) * 2 dx + gx (d = block dims). out[flat] = sum over j < m of
    (j odd ? a[j] : 2 a[j]) + (flat < m ? 1 : 0); the j loop is i64, nested in an i32 loop over the
    two halves [0, m / 2) and [m / 2, m)."""
    b = Builder("nested_control", max_workgroup_size=512)
    pa = b.param("a", ptr(f32, "global"), noalias=True, readonly=True)
    out = b.param("out", ptr(f32, "global"), noalias=True)
    m = b.param("m", i32)
    tx, ty, tz = b.thread_id_x(), b.thread_id_y(), b.thread_id_z()
    bx, by, bz = b.block_id_x(), b.block_id_y(), b.block_id_z()
    dx, dy, dz = b.block_dim_x(), b.block_dim_y(), b.block_dim_z()
    # global coordinates per dimension, then a row-major flat index over (z, y, x)
    gx = b.add(b.mul(bx, dx), tx, name="gx")
    gy = b.add(b.mul(by, dy), ty, name="gy")
    gz = b.add(b.mul(bz, dz), tz, name="gz")
    width = b.mul(dx, b.const(2, i32), name="width")  # launches use 2 blocks in x and y
    height = b.mul(dy, b.const(2, i32), name="height")
    flat = b.add(b.mul(b.add(b.mul(gz, height), gy), width), gx, name="flat")
    half = b.divs(m, b.const(2, i32), name="half")
    zero = b.const(0.0, f32)

    def outer(h: Value, acc: Value) -> list[Value]:
        start = b.exts(b.mul(h, half), i64, name="start")
        stop = b.select(
            b.cmpi("eq", h, b.const(1, i32)), b.exts(m, i64), b.exts(b.add(b.mul(h, half), half), i64)
        )

        def inner(j: Value, acc_in: Value) -> list[Value]:
            row = b.ptr_add(pa, j, name="row")
            v = b.load(row, b.const(0, i64), name="v")
            odd = b.cmpi("ne", b.and_(j, b.const(1, i64)), b.const(0, i64), name="odd")
            (term,) = b.if_(odd, lambda: [v], lambda: [b.add(v, v)], names=["term"])
            return [b.add(acc_in, term)]

        (acc_out,) = b.for_(start, stop, b.const(1, i64), [acc], inner, names=["acc"], iv_name="j")
        return [acc_out]

    (total,) = b.for_(
        b.const(0, i32), b.const(2, i32), b.const(1, i32), [zero], outer, names=["acc"], iv_name="h"
    )
    bonus = b.select(b.cmpi("slt", flat, m), b.const(1.0, f32), zero, name="bonus")
    b.store(out, flat, b.add(total, bonus))
    return b.finish()


def gemm_mfma() -> KernelDef:
    """One wave64 computes C (16x16, f32, row-major) = A (16xK f16, row-major) * B, B given as
    B^T (16xK f16, row-major), K a multiple of 16, with op mfma_f32_16x16x16_f16. Lane l holds
    A[l % 16][k0 + 4 (l / 16) + 0..3], B^T likewise, and C rows 4 (l / 16) + 0..3 of column l % 16."""
    b = Builder("gemm_mfma", max_workgroup_size=64)
    pa = b.param("a", ptr(f16, "global"), noalias=True, readonly=True, align=8)
    pbt = b.param("bt", ptr(f16, "global"), noalias=True, readonly=True, align=8)
    pc = b.param("c", ptr(f32, "global"), noalias=True, writeonly=True)
    k = b.param("k", i32)
    lane = b.lane_id(name="lane")
    c16 = b.const(16, i32)
    row = b.remu(lane, c16, name="row")
    quad = b.divu(lane, c16, name="quad")
    kofs = b.mul(quad, b.const(4, i32), name="kofs")
    acc0 = b.splat(b.const(0.0, f32), 4, name="acc")

    def body(k0: Value, acc: Value) -> list[Value]:
        col = b.add(k0, kofs, name="col")
        afrag = b.load(pa, b.add(b.mul(row, k), col), lanes=4, align=8, name="afrag")
        bfrag = b.load(pbt, b.add(b.mul(row, k), col), lanes=4, align=8, name="bfrag")
        return [b.mma(MFMA_OP_ID, afrag, bfrag, acc, name="acc")]

    (acc,) = b.for_(b.const(0, i32), k, c16, [acc0], body, names=["acc"], iv_name="k0")
    for j in range(4):
        out_row = b.add(kofs, b.const(j, i32))
        b.store(pc, b.add(b.mul(out_row, c16), row), b.extract(acc, j, name=f"d{j}"))
    return b.finish()


def gemm_wmma() -> KernelDef:
    """One wave32 computes C (16x16 f32) = A (16x16 f16) * B, B given as B^T, with op
    wmma_f32_16x16x16_f16_gfx11. Lane l holds row l % 16 of A and of B^T (all 16 k; lanes 16-31
    repeat lanes 0-15) and C rows 2 j + l / 16 of column l % 16 in slot j."""
    b = Builder("gemm_wmma", max_workgroup_size=32)
    pa = b.param("a", ptr(f16, "global"), noalias=True, readonly=True, align=32)
    pbt = b.param("bt", ptr(f16, "global"), noalias=True, readonly=True, align=32)
    pc = b.param("c", ptr(f32, "global"), noalias=True, writeonly=True)
    lane = b.lane_id(name="lane")
    c16 = b.const(16, i32)
    row = b.remu(lane, c16, name="row")
    half = b.divu(lane, c16, name="half")
    start = b.mul(row, c16, name="start")
    afrag = b.load(pa, start, lanes=16, align=32, name="afrag")
    bfrag = b.load(pbt, start, lanes=16, align=32, name="bfrag")
    acc = b.mma(WMMA_OP_ID, afrag, bfrag, b.splat(b.const(0.0, f32), 8), name="acc")
    for j in range(8):
        out_row = b.add(b.const(2 * j, i32), half)
        b.store(pc, b.add(b.mul(out_row, c16), row), b.extract(acc, j, name=f"d{j}"))
    return b.finish()


_SAMPLES: tuple[tuple[str, Callable[[], KernelDef]], ...] = (
    ("axpy", axpy),
    ("vec_ops", vec_ops),
    ("int_ops", int_ops),
    ("float_math", float_math),
    ("xlane_ops", xlane_ops),
    ("block_reduce", block_reduce),
    ("buffer_copy", buffer_copy),
    ("nested_control", nested_control),
    ("gemm_mfma", gemm_mfma),
    ("gemm_wmma", gemm_wmma),
)
SAMPLE_NAMES: tuple[str, ...] = tuple(name for name, _ in _SAMPLES)


def sample_kernels() -> dict[str, KernelDef]:
    """Fresh copies of every sample kernel, in SAMPLE_NAMES order."""
    return {name: build() for name, build in _SAMPLES}


def sample_needs() -> dict[str, KernelNeeds]:
    """Per sample: arch features and MMA op_ids it needs (check with KernelNeeds.satisfied_by)."""
    return {name: kernel_needs(kernel) for name, kernel in sample_kernels().items()}
