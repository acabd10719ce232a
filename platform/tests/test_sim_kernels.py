"""Small kernels run on the simulator and compared with independent numpy references.

Each kernel is written here with the Builder. References use numpy only (float64 where the kernel
accumulates), with the tolerance stated at each comparison. Negative controls build deliberately
broken variants and assert that the same comparison reports a failure (or that the simulator
reports the bug), proving the checks can fail.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from rocke.arch import MMA_OPS, get_arch, mma_op
from rocke.ir import Builder, KernelDef, Value, bf16, f16, f32, i32, ptr, vec
from rocke.sim import DataRace, LaunchError, compare, run

pytestmark = pytest.mark.numeric

RNG_SEED = 20240607


def _gid(b: Builder) -> Value:
    return b.add(b.mul(b.block_id_x(), b.block_dim_x()), b.thread_id_x(), name="gid")


# ---------------------------------------------------------------------- vector add with a tail
def vadd_kernel(*, tail_mask: bool = True) -> KernelDef:
    """out[i] = x[i] + y[i] for i < n (f32); the broken variant drops the `i < n` guard."""
    b = Builder("vadd" if tail_mask else "vadd_no_tail", max_workgroup_size=256)
    x = b.param("x", ptr(f32, "global"), noalias=True, readonly=True)
    y = b.param("y", ptr(f32, "global"), noalias=True, readonly=True)
    out = b.param("out", ptr(f32, "global"), noalias=True, writeonly=True)
    n = b.param("n", i32)
    gid = _gid(b)

    def body() -> None:
        b.store(out, gid, b.add(b.load(x, gid), b.load(y, gid)))

    if tail_mask:
        b.if_(b.cmpi("slt", gid, n), body)
    else:
        body()
    return b.finish()


def _run_vadd(kernel: KernelDef, arch: str, n: int, padded: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(RNG_SEED)
    x = rng.standard_normal(padded).astype(np.float32)
    y = rng.standard_normal(padded).astype(np.float32)
    canary = np.float32(-12345.0)
    out = np.full(padded, canary, np.float32)
    block = 256
    run(kernel, arch=arch, grid=-(-n // block), block=block, args=[x, y, out, n])
    expected = np.full(padded, canary, np.float32)
    expected[:n] = x[:n] + y[:n]
    return out, expected


@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
def test_vadd_tail(arch: str) -> None:
    out, expected = _run_vadd(vadd_kernel(), arch, 1000, 1024)
    result = compare(out, expected, rtol=0.0, atol=0.0, name="vadd")  # f32 add is exact to numpy's
    assert result.ok, result.message


def test_vadd_negative_control_dropped_tail_mask() -> None:
    out, expected = _run_vadd(vadd_kernel(tail_mask=False), "gfx942", 1000, 1024)
    result = compare(out, expected, rtol=0.0, atol=0.0, name="vadd")
    assert not result.ok
    assert result.mismatches == 24  # elements 1000..1023: the canary was overwritten
    assert result.worst_index is not None and result.worst_index[0] >= 1000


# ---------------------------------------------------------------------- LDS transpose
TILE = 16


def transpose_kernel(*, with_barrier: bool = True) -> KernelDef:
    """out = in^T for a (rows x cols) f32 matrix, both multiples of 16: each 16 x 16 workgroup
    stages its tile in LDS, synchronizes, and writes the tile transposed (2-D block and grid)."""
    b = Builder("transpose" if with_barrier else "transpose_racy", max_workgroup_size=TILE * TILE)
    src = b.param("src", ptr(f32, "global"), noalias=True, readonly=True)
    dst = b.param("dst", ptr(f32, "global"), noalias=True, writeonly=True)
    rows = b.param("rows", i32)
    cols = b.param("cols", i32)
    tile = b.lds_alloc(f32, TILE * TILE, name="tile")
    tx, ty = b.thread_id_x(name="tx"), b.thread_id_y(name="ty")
    t16 = b.const(TILE, i32)
    bx = b.mul(b.block_id_x(), t16, name="col0")
    by = b.mul(b.block_id_y(), t16, name="row0")
    value = b.load(src, b.add(b.mul(b.add(by, ty), cols), b.add(bx, tx)))
    b.lds_store(tile, b.add(b.mul(ty, t16), tx), value)
    if with_barrier:
        b.barrier()
    # thread (tx, ty) writes dst[col0 + ty][row0 + tx] = tile[tx][ty]
    moved = b.lds_load(tile, b.add(b.mul(tx, t16), ty))
    b.store(dst, b.add(b.mul(b.add(bx, ty), rows), b.add(by, tx)), moved)
    return b.finish()


@pytest.mark.parametrize("arch", ["gfx942", "gfx1201"])
def test_lds_transpose(arch: str) -> None:
    rows, cols = 48, 32
    src = np.random.default_rng(RNG_SEED).standard_normal((rows, cols)).astype(np.float32)
    dst = np.zeros((cols, rows), np.float32)
    run(transpose_kernel(), arch=arch, grid=(cols // TILE, rows // TILE), block=(TILE, TILE),
        args=[src, dst, rows, cols])
    result = compare(dst, src.T, rtol=0.0, atol=0.0, name="transpose")  # data movement only: exact
    assert result.ok, result.message


def test_lds_transpose_negative_control_missing_barrier() -> None:
    """Lockstep execution alone would give the right numbers; the race check reports the bug."""
    src = np.zeros((16, 16), np.float32)
    dst = np.zeros((16, 16), np.float32)
    with pytest.raises(DataRace, match=r"^mem\.lds_load %\d+ at body\[\d+\]: reads element \d+ of "
                                       r"mem\.lds_alloc %4, written by another wave since the last barrier"):
        run(transpose_kernel(with_barrier=False), arch="gfx942", grid=1, block=(16, 16), args=[src, dst, 16, 16])


# ---------------------------------------------------------------------- wave reductions
def wave_sum_kernel(method: str, wave_size: int, *, skip_last: bool = False) -> KernelDef:
    """out[w] = sum of x over the lanes of global wave w (f32), by butterfly steps with `method`:
    shuffle_xor, ds_swizzle (bitmask xor within 32 lanes; the 32-lane step of wave64 uses
    ds_bpermute) or ds_bpermute. Lane 0 of each wave writes the sum; out[n_waves + w] = the sum
    broadcast from the wave's first lane by readfirstlane (checks the broadcast)."""
    b = Builder(f"wave_sum_{method}", max_workgroup_size=256)
    x = b.param("x", ptr(f32, "global"), noalias=True, readonly=True)
    out = b.param("out", ptr(f32, "global"), noalias=True, writeonly=True)
    n_waves = b.param("n_waves", i32)
    gid = _gid(b)
    lane = b.lane_id(name="lane")
    value = b.load(x, gid, name="v")
    masks = [m for m in (32, 16, 8, 4, 2, 1) if m < wave_size]
    if skip_last:
        masks = masks[:-1]
    for mask in masks:
        if method == "shuffle_xor":
            other = b.shuffle_xor(value, mask)
        elif method == "ds_swizzle" and mask < 32:
            other = b.ds_swizzle(value, 0x1F | (mask << 10))  # bitmask mode: and 31, or 0, xor mask
        else:
            addr = b.shl(b.xor_(lane, b.const(mask, i32)), b.const(2, i32))
            other = b.ds_bpermute(addr, value)
        value = b.add(value, other, name="v")
    wave = b.divu(gid, b.wave_size(), name="gwave")
    b.if_(b.cmpi("eq", lane, b.const(0, i32)), lambda: b.store(out, wave, value))
    b.store(out, b.add(n_waves, wave), b.readfirstlane(value))
    return b.finish()


@pytest.mark.parametrize("method", ["shuffle_xor", "ds_swizzle", "ds_bpermute"])
@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
def test_wave_reduction(method: str, arch: str) -> None:
    ws = get_arch(arch).wave_size
    threads = 512
    x = np.random.default_rng(RNG_SEED).standard_normal(threads).astype(np.float32)
    n_waves = threads // ws
    out = np.zeros(2 * n_waves, np.float32)
    run(wave_sum_kernel(method, ws), arch=arch, grid=threads // 256, block=256, args=[x, out, n_waves])
    sums = x.astype(np.float64).reshape(n_waves, ws).sum(axis=1)
    # A butterfly of f32 adds: each lane's rounding error is at most log2(wave) ulps of the sum.
    result = compare(out, np.concatenate([sums, sums]), rtol=1e-5, atol=1e-5, name=f"{method} sums")
    assert result.ok, result.message


def test_wave_reduction_negative_control_missing_step() -> None:
    ws = 64
    x = np.random.default_rng(RNG_SEED).standard_normal(256).astype(np.float32)
    out = np.zeros(8, np.float32)
    run(wave_sum_kernel("shuffle_xor", ws, skip_last=True), arch="gfx942", grid=1, block=256, args=[x, out, 4])
    sums = x.astype(np.float64).reshape(4, ws).sum(axis=1)
    result = compare(out, np.concatenate([sums, sums]), rtol=1e-5, atol=1e-5, name="sums")
    assert not result.ok


# ---------------------------------------------------------------------- one MMA tile per catalog op
def _layout_value(b: Builder, node: tuple, lane: Value, slot: int) -> Value:
    """Emit IR computing a layout formula's tree for this lane (slot is a build-time constant).
    Layout operands are non-negative, so divs/rems give the formula's floor division/modulo."""
    kind = node[0]
    if kind == "int":
        return b.const(node[1], i32)
    if kind == "var":
        return lane if node[1] == "lane" else b.const(slot, i32)
    left = _layout_value(b, node[1], lane, slot)
    right = _layout_value(b, node[2], lane, slot)
    return {"+": b.add, "-": b.sub, "*": b.mul, "/": b.divs, "%": b.rems}[kind](left, right)


IR_DTYPES = {"f16": f16, "bf16": bf16, "f32": f32}


def mma_tile_kernel(op_id: str, *, transposed_a: bool = False) -> KernelDef:
    """d = a @ b + c for one tile of catalog op op_id (row-major a: m x k, b: k x n, c, d: m x n).
    Each lane gathers its A, B and C fragments element by element at the (row, col) its layout
    formulas give, runs mma.mma, and scatters D by the C/D layout. The broken variant reads A
    column-major (index col * m + row), the classic transposed-operand bug."""
    op = mma_op(op_id)
    b = Builder(f"tile_{op_id}", max_workgroup_size=op.wave_size)
    pa = b.param("a", ptr(IR_DTYPES[op.a.dtype], "global"), noalias=True, readonly=True)
    pb = b.param("b", ptr(IR_DTYPES[op.b.dtype], "global"), noalias=True, readonly=True)
    pc = b.param("c", ptr(IR_DTYPES[op.c.dtype], "global"), noalias=True, readonly=True)
    pd = b.param("d", ptr(IR_DTYPES[op.c.dtype], "global"), noalias=True, writeonly=True)
    lane = b.lane_id(name="lane")

    def position(operand: str, slot: int) -> tuple[Value, Value]:
        frag = op.operand(operand)
        return (_layout_value(b, frag.row_expr.tree, lane, slot), _layout_value(b, frag.col_expr.tree, lane, slot))

    def index(operand: str, slot: int, width: int, height: int, transposed: bool) -> Value:
        row, col = position(operand, slot)
        if transposed:
            return b.add(b.mul(col, b.const(height, i32)), row)
        return b.add(b.mul(row, b.const(width, i32)), col)

    def gather(operand: str, source: Value, width: int, height: int, transposed: bool = False) -> Value:
        frag = op.operand(operand)
        value = b.splat(b.const(0.0, IR_DTYPES[frag.dtype]), frag.length)
        for slot in range(frag.length):
            element = b.load(source, index(operand, slot, width, height, transposed))
            value = b.insert(value, element, slot)
        return value

    afrag = gather("a", pa, op.k, op.m, transposed_a)
    bfrag = gather("b", pb, op.n, op.k)
    cfrag = gather("c", pc, op.n, op.m)
    dfrag = b.mma(op_id, afrag, bfrag, cfrag, name="d")
    for slot in range(op.c.length):
        b.store(pd, index("c", slot, op.n, op.m, False), b.extract(dfrag, slot))
    return b.finish()


def _numpy_dtype(name: str) -> np.dtype:
    import ml_dtypes

    return {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16), "f32": np.dtype(np.float32)}[name]


def _run_mma_tile(op_id: str, arch: str, transposed_a: bool) -> tuple[np.ndarray, np.ndarray]:
    op = mma_op(op_id)
    rng = np.random.default_rng(RNG_SEED)
    a = rng.uniform(-1, 1, (op.m, op.k)).astype(_numpy_dtype(op.a.dtype))
    bm = rng.uniform(-1, 1, (op.k, op.n)).astype(_numpy_dtype(op.b.dtype))
    c = rng.uniform(-1, 1, (op.m, op.n)).astype(np.float32)
    d = np.zeros((op.m, op.n), np.float32)
    run(mma_tile_kernel(op_id, transposed_a=transposed_a), arch=arch, grid=1, block=op.wave_size,
        args=[a, bm, c, d])
    expected = a.astype(np.float64) @ bm.astype(np.float64) + c.astype(np.float64)
    return d, expected


MMA_CASES = [(op.id, arch) for op in MMA_OPS for arch in op.archs]
# Products of f16/bf16 inputs are exact and the sum is rounded once to f32: a few f32 ulps of
# |d| <= k + 1 (inputs in [-1, 1]).
MMA_RTOL, MMA_ATOL = 1e-6, 1e-5


@pytest.mark.parametrize(("op_id", "arch"), MMA_CASES)
def test_mma_tile(op_id: str, arch: str) -> None:
    d, expected = _run_mma_tile(op_id, arch, False)
    result = compare(d, expected, rtol=MMA_RTOL, atol=MMA_ATOL, name=op_id)
    assert result.ok, result.message


@pytest.mark.parametrize("op_id", [op.id for op in MMA_OPS])
def test_mma_tile_negative_control_transposed_a(op_id: str) -> None:
    d, expected = _run_mma_tile(op_id, mma_op(op_id).archs[0], True)
    result = compare(d, expected, rtol=MMA_RTOL, atol=MMA_ATOL, name=op_id)
    assert not result.ok
    assert result.mismatches > d.size // 2


@pytest.mark.parametrize("op_id", ["mfma_f32_16x16x16_bf16", "wmma_f32_16x16x16_f16_gfx11"])
def test_mma_orders_add_one_product_at_a_time(op_id: str) -> None:
    """mma_order='forward' / 'reverse': d = (((c + p_0) + p_1) + ...) with every add rounded to f32
    (k ascending / descending), checked against exact rational arithmetic; it differs from the
    default's single rounding of the exact sum on some elements."""
    op = mma_op(op_id)
    rng = np.random.default_rng(RNG_SEED)
    a = rng.uniform(-1, 1, (op.m, op.k)).astype(_numpy_dtype(op.a.dtype))
    bm = rng.uniform(-1, 1, (op.k, op.n)).astype(_numpy_dtype(op.b.dtype))
    c = rng.uniform(-1, 1, (op.m, op.n)).astype(np.float32)
    results = {}
    for order in ("exact", "forward", "reverse"):
        d = np.zeros((op.m, op.n), np.float32)
        run(mma_tile_kernel(op_id), arch=op.archs[0], grid=1, block=op.wave_size, args=[a, bm, c, d], mma_order=order)
        results[order] = d
    fa = [[Fraction(float(v)) for v in row] for row in a.astype(np.float64)]
    fb = [[Fraction(float(v)) for v in row] for row in bm.astype(np.float64)]
    for order, ks in (("forward", range(op.k)), ("reverse", range(op.k - 1, -1, -1))):
        want = np.zeros((op.m, op.n), np.float32)
        for i in range(op.m):
            for j in range(op.n):
                acc = np.float32(c[i, j])
                for kk in ks:
                    exact = Fraction(float(acc)) + fa[i][kk] * fb[kk][j]
                    acc = _round_f32(exact)
                want[i, j] = acc
        assert results[order].tolist() == want.tolist(), order
        assert (results[order] != results["exact"]).any(), order
    with pytest.raises(LaunchError, match=r"mma_order must be one of exact, forward, reverse, got 'tree'"):
        run(mma_tile_kernel(op_id), arch=op.archs[0], grid=1, block=op.wave_size, args=[a, bm, c, results["exact"]],
            mma_order="tree")


def _round_f32(x) -> np.float32:
    """A rational to the nearest f32 (ties to even), via its two f32 neighbours."""
    near = np.float32(float(x))  # float() rounds the rational to nearest binary64, then to f32
    lo, hi = (near, np.nextafter(near, np.float32(np.inf))) if x >= near else (
        np.nextafter(near, np.float32(-np.inf)), near)
    d_lo, d_hi = x - Fraction(float(lo)), Fraction(float(hi)) - x
    if d_lo != d_hi:
        return lo if d_lo < d_hi else hi
    return lo if int(lo.view(np.uint32)) % 2 == 0 else hi


# ---------------------------------------------------------------------- a small LDS-staged GEMM
GEMM_OP = "mfma_f32_32x32x8_f16"
GEMM_TILE = 64  # workgroup tile (m and n); 4 waves of 32 x 32
GEMM_BK = 32


def gemm_kernel(*, alpha_twice: bool = False) -> KernelDef:
    """c = alpha * a @ bt^T (a: M x K f16, bt: N x K f16, c: M x N f32, all row-major; M, N
    multiples of 64, K of 32), on gfx942/gfx950 with mfma_f32_32x32x8_f16. A 256-thread
    workgroup owns a 64 x 64 tile of c; per 32-wide K step it stages a and bt tiles in LDS with
    8-half vector loads, synchronizes, and each wave runs 4 MFMAs on its 32 x 32 sub-tile. The
    broken variant applies alpha twice (a wrong-scale bug)."""
    op = mma_op(GEMM_OP)
    b = Builder("gemm_lds" if not alpha_twice else "gemm_lds_alpha2", max_workgroup_size=256)
    pa = b.param("a", ptr(f16, "global"), noalias=True, readonly=True, align=16)
    pbt = b.param("bt", ptr(f16, "global"), noalias=True, readonly=True, align=16)
    pc = b.param("c", ptr(f32, "global"), noalias=True, writeonly=True)
    alpha = b.param("alpha", f32)
    n = b.param("n", i32)
    k = b.param("k", i32)
    a_tile = b.lds_alloc(f16, GEMM_TILE * GEMM_BK, align=16, name="a_tile")
    b_tile = b.lds_alloc(f16, GEMM_TILE * GEMM_BK, align=16, name="b_tile")
    tid = b.thread_id_x(name="tid")
    lane = b.lane_id(name="lane")
    wave = b.wave_id(name="wave")
    c = {v: b.const(v, i32) for v in (2, 4, 8, 32, GEMM_TILE, GEMM_BK)}
    row0 = b.mul(b.block_id_y(), c[GEMM_TILE], name="row0")
    col0 = b.mul(b.block_id_x(), c[GEMM_TILE], name="col0")
    # staging: thread t copies 8 halves of row t / 4, columns (t % 4) * 8 .. + 7 of each tile
    st_row = b.divu(tid, c[4], name="st_row")
    st_col = b.mul(b.remu(tid, c[4]), c[8], name="st_col")
    st_lds = b.add(b.mul(st_row, c[GEMM_BK]), st_col, name="st_lds")
    a_src = b.add(b.mul(b.add(row0, st_row), k), st_col, name="a_src")
    b_src = b.add(b.mul(b.add(col0, st_row), k), st_col, name="b_src")
    # fragments: wave w owns rows (w / 2) * 32 .., columns (w % 2) * 32 .. of the tile
    w_row = b.mul(b.divu(wave, c[2]), c[32], name="w_row")
    w_col = b.mul(b.remu(wave, c[2]), c[32], name="w_col")
    frag_k = b.mul(b.divu(lane, c[32]), c[4], name="frag_k")  # A: col lane / 32 * 4 + slot
    frag_mn = b.remu(lane, c[32], name="frag_mn")  # A: row lane % 32; B: col lane % 32
    a_frag0 = b.add(b.mul(b.add(w_row, frag_mn), c[GEMM_BK]), frag_k, name="a_frag0")
    b_frag0 = b.add(b.mul(b.add(w_col, frag_mn), c[GEMM_BK]), frag_k, name="b_frag0")
    acc0 = b.splat(b.const(0.0, f32), op.c.length, name="acc")

    def k_step(k0: Value, acc: Value) -> list[Value]:
        b.lds_store(a_tile, st_lds, b.load(pa, b.add(a_src, k0), lanes=8, align=16), align=16)
        b.lds_store(b_tile, st_lds, b.load(pbt, b.add(b_src, k0), lanes=8, align=16), align=16)
        b.barrier()
        for kk in range(0, GEMM_BK, op.k):
            kk_v = b.const(kk, i32)
            afrag = b.lds_load(a_tile, b.add(a_frag0, kk_v), lanes=4, align=8, name="afrag")
            bfrag = b.lds_load(b_tile, b.add(b_frag0, kk_v), lanes=4, align=8, name="bfrag")
            acc = b.mma(GEMM_OP, afrag, bfrag, acc, name="acc")
        b.barrier()
        return [acc]

    (acc,) = b.for_(b.const(0, i32), k, c[GEMM_BK], [acc0], k_step, names=["acc"], iv_name="k0")
    scale = b.splat(b.mul(alpha, alpha) if alpha_twice else alpha, op.c.length)
    acc = b.mul(acc, scale, name="scaled")
    # D layout: row slot / 4 * 8 + lane / 32 * 4 + slot % 4, col lane % 32
    out_col = b.add(col0, b.add(w_col, frag_mn), name="out_col")
    for slot in range(op.c.length):
        row_in = b.add(b.const(slot // 4 * 8 + slot % 4, i32), frag_k)
        out_row = b.add(row0, b.add(w_row, row_in))
        b.store(pc, b.add(b.mul(out_row, n), out_col), b.extract(acc, slot))
    return b.finish()


def run_gemm(m: int, n: int, k: int, *, alpha_twice: bool = False, arch: str = "gfx942",
             seed: int = RNG_SEED) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    bt = rng.uniform(-1, 1, (n, k)).astype(np.float16)
    c = np.zeros((m, n), np.float32)
    alpha = 0.5
    run(gemm_kernel(alpha_twice=alpha_twice), arch=arch, grid=(n // GEMM_TILE, m // GEMM_TILE), block=256,
        args=[a, bt, c, alpha, n, k])
    expected = alpha * (a.astype(np.float64) @ bt.astype(np.float64).T)
    return c, expected


# K / 8 MFMAs, each rounding its f32 accumulator once: ~K/8 f32 ulps of sum |a b| <= K.
GEMM_RTOL, GEMM_ATOL = 1e-5, 1e-4


@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
def test_gemm_lds(arch: str) -> None:
    c, expected = run_gemm(128, 64, 96, arch=arch)
    result = compare(c, expected, rtol=GEMM_RTOL, atol=GEMM_ATOL, name="gemm")
    assert result.ok, result.message


def test_gemm_negative_control_wrong_scale() -> None:
    c, expected = run_gemm(64, 64, 32, alpha_twice=True)
    result = compare(c, expected, rtol=GEMM_RTOL, atol=GEMM_ATOL, name="gemm")
    assert not result.ok


def test_mma_cases_cover_the_catalog() -> None:
    """Every op_id runs on every arch of its set (and the catalog names real archs)."""
    assert {op_id for op_id, _ in MMA_CASES} == {op.id for op in MMA_OPS}
    for op_id, arch in MMA_CASES:
        assert get_arch(arch).mma_signature(op_id) is not None
    assert vec(f16, 4).lanes == 4
