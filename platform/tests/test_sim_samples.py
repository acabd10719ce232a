"""Every sample kernel of rocke.ir.samples on the simulator, against numpy references written from
the samples' docstrings. Together the samples use every op of the op table."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from rocke.ir import OPS
from rocke.ir.samples import SAMPLE_NAMES, sample_kernels
from rocke.sim import assert_close, run

pytestmark = pytest.mark.numeric

BF16 = ml_dtypes.bfloat16
RNG = np.random.default_rng(3)
F32_ULP = 2.0**-23


def _wrap(v: int, bits: int = 32) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >= 1 << (bits - 1) else v


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


@pytest.fixture(scope="module")
def kernels() -> dict:
    return sample_kernels()


def test_samples_cover_every_op(kernels: dict) -> None:
    used = {op.opcode for k in kernels.values() for op in k.walk()}
    assert used == {op.name for op in OPS}
    assert list(kernels) == list(SAMPLE_NAMES)


@pytest.mark.parametrize("arch", ["gfx942", "gfx1201"])
def test_axpy(kernels: dict, arch: str) -> None:
    n = 1000
    x = RNG.standard_normal(n).astype(np.float32)
    y = RNG.standard_normal(n).astype(np.float32)
    alpha = np.float32(1.7)
    want = np.float64(alpha) * x.astype(np.float64) + y.astype(np.float64)
    run(kernels["axpy"], arch=arch, grid=4, block=256, args=[x, y, alpha, n])
    assert_close(y, want.astype(np.float32), rtol=F32_ULP, atol=0.0, name="axpy")  # fma: one rounding


def test_vec_ops(kernels: dict) -> None:
    groups = 50
    x = RNG.standard_normal(4 * groups).astype(np.float16)
    y = np.zeros(4 * groups, np.float16)
    bits = np.zeros(2 * groups, np.int32)
    fbits = np.zeros(groups, np.int32)
    run(kernels["vec_ops"], arch="gfx942", grid=1, block=64, args=[x, y, bits, fbits, 0.75, groups])
    w = (x.astype(np.float32) * np.float32(0.75)).astype(np.float16).reshape(groups, 4)[:, ::-1].reshape(-1)
    assert y.tolist() == w.tolist()
    assert bits.tolist() == w.view(np.int32).tolist()
    assert fbits.tolist() == [int(np.float32(0.75).view(np.int32))] * groups


def test_int_ops(kernels: dict) -> None:
    n = 300
    a = RNG.integers(-(2**31), 2**31, n, dtype=np.int64).astype(np.int32)
    b = RNG.integers(-(2**31), 2**31, n, dtype=np.int64).astype(np.int32)
    a[:4] = [-(2**31), 2**31 - 1, -1, 0]
    b[:4] = [2, 1, 2**31 - 1, -(2**31)]  # (MIN, -1) would divide MIN by b | 1 = -1: undefined
    out = np.zeros(n, np.int32)
    out64 = np.zeros(n, np.int64)
    outf = np.zeros(n, np.float32)
    run(kernels["int_ops"], arch="gfx1100", grid=5, block=64, args=[a, b, out, out64, outf, n])
    want, want64, wantf = [], [], []
    for av, bv in zip(a.tolist(), b.tolist(), strict=True):
        au, bu = av % 2**32, bv % 2**32
        nz = bv | 1
        nzu = nz % 2**32
        amount = bv & 31
        terms = [_trunc_div(av, nz), au // nzu, av - _trunc_div(av, nz) * nz, au % nzu, av << amount, av >> amount,
                 au >> amount, av ^ bv, av - bv, av * bv, min(av, bv), max(av, bv), min(au, bu), max(au, bu),
                 -7 if au < bu else 0xFFFF, _wrap(av, 16)]
        fa, fb = np.float32(av), np.float32(bu)
        total = sum(_wrap(t) for t in terms) + int(np.trunc(fa * np.float32(0.5))) + int(fb * np.float32(0.25))
        want.append(_wrap(total))
        want64.append(av + bu)
        wantf.append(fa + fb)
    assert out.tolist() == want
    assert out64.tolist() == want64
    assert outf.tolist() == np.array(wantf, np.float32).tolist()


def test_float_math(kernels: dict) -> None:
    n = 256
    x = (RNG.standard_normal(n) * 4).astype(np.float32)
    h = RNG.standard_normal(n).astype(np.float16)
    g = RNG.standard_normal(n).astype(BF16)
    y = np.zeros(n, np.float32)
    yh = np.zeros(n, np.float16)
    yg = np.zeros(n, BF16)
    run(kernels["float_math"], arch="gfx950", grid=2, block=128, args=[x, h, g, y, yh, yg, n])
    xd, hd, gd = x.astype(np.float64), h.astype(np.float64), g.astype(np.float64)
    m = np.abs(xd) + 1
    t = np.exp2(np.minimum(xd, 8)) + np.log2(m) + 1 / m + np.sqrt(m) + 1 / np.sqrt(m) + hd / m + np.fmod(gd, m)
    want = np.where(xd > 0, t, t * -0.5 + 1)
    # about ten f32 roundings of terms up to 2^8: a few ulps of the largest term
    assert_close(y, want, rtol=1e-6, atol=2e-5, name="y")
    assert_close(yh, np.maximum(np.minimum(hd, gd), xd - hd), rtol=2.0**-11, atol=2.0**-24, name="yh")  # f16
    assert_close(yg, xd * 2 - hd, rtol=2.0**-8, atol=0.0, name="yg")  # bf16: half an ulp


@pytest.mark.parametrize(("arch", "ws"), [("gfx942", 64), ("gfx1100", 32)])
def test_xlane_ops(kernels: dict, arch: str, ws: int) -> None:
    threads = 128
    x = RNG.standard_normal(threads).astype(np.float32)
    out = np.zeros(5 * threads, np.float32)
    ids = np.zeros(2 * threads, np.int32)
    run(kernels["xlane_ops"], arch=arch, grid=1, block=threads, args=[x, out, ids])
    t = np.arange(threads)
    wave0 = (t // ws) * ws
    want = np.stack([x[t ^ 1], x[wave0 + ((t % ws) ^ 1)], x[wave0], x[wave0 + ((t % ws) ^ 2)], x[t ^ 1]], axis=1)
    assert out.reshape(threads, 5).tolist() == want.tolist()
    assert ids.reshape(threads, 2).tolist() == np.stack([t, np.full(threads, ws)], axis=1).tolist()


@pytest.mark.parametrize("arch", ["gfx942", "gfx1201"])
def test_block_reduce(kernels: dict, arch: str) -> None:
    n = 1000
    x = RNG.standard_normal(n).astype(np.float32)
    out = np.array([10.0], np.float32)
    run(kernels["block_reduce"], arch=arch, grid=4, block=256, args=[x, out, n])
    # 1024 f32 terms summed in a tree of depth ~12: a few ulps of the sum of |x|
    assert_close(out, [10.0 + x.astype(np.float64).sum()], rtol=0.0, atol=1e-4, name="block sum")


def test_buffer_copy(kernels: dict) -> None:
    threads = 32
    src = np.arange(4 * threads, dtype=np.int32)
    dst = np.full(4 * threads, -1, np.int32)
    lut = np.arange(20, dtype=np.float32) * 0.5
    scaled = np.zeros(threads, np.float32)
    nbytes = 16 * 20  # only the first 20 threads' 16-byte chunks are in range
    run(kernels["buffer_copy"], arch="gfx942", grid=1, block=threads, args=[src, dst, lut, scaled, nbytes])
    assert dst.tolist() == src[:80].tolist() + [-1] * 48  # out-of-range stores dropped
    assert scaled.tolist() == [lut[t % 16 + 1] * 2 for t in range(threads)]


def test_nested_control(kernels: dict) -> None:
    block = (4, 2, 3)
    grid = (2, 2, 2)
    m = 13
    a = RNG.standard_normal(m).astype(np.float32)
    width, height, depth = 2 * block[0], 2 * block[1], grid[2] * block[2]
    out = np.zeros(width * height * depth, np.float32)
    run(kernels["nested_control"], arch="gfx1100", grid=grid, block=block, args=[a, out, m])
    total = np.float32(0.0)
    for j in range(m):  # the halves [0, m/2) and [m/2, m) are summed in order, in f32
        total = np.float32(total + (a[j] if j % 2 else a[j] + a[j]))
    want = [total + np.float32(1.0 if flat < m else 0.0) for flat in range(out.size)]
    assert out.tolist() == np.array(want, np.float32).tolist()


@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
def test_gemm_mfma(kernels: dict, arch: str) -> None:
    k = 64
    a = RNG.uniform(-1, 1, (16, k)).astype(np.float16)
    bt = RNG.uniform(-1, 1, (16, k)).astype(np.float16)
    c = np.zeros((16, 16), np.float32)
    run(kernels["gemm_mfma"], arch=arch, grid=1, block=64, args=[a, bt, c, k])
    # k / 16 MFMAs, each rounding to f32 once
    assert_close(c, a.astype(np.float64) @ bt.astype(np.float64).T, rtol=1e-6, atol=1e-5, name="gemm_mfma")


def test_gemm_wmma(kernels: dict) -> None:
    a = RNG.uniform(-1, 1, (16, 16)).astype(np.float16)
    bt = RNG.uniform(-1, 1, (16, 16)).astype(np.float16)
    c = np.zeros((16, 16), np.float32)
    run(kernels["gemm_wmma"], arch="gfx1100", grid=1, block=32, args=[a, bt, c])
    assert_close(c, a.astype(np.float64) @ bt.astype(np.float64).T, rtol=1e-6, atol=1e-6, name="gemm_wmma")
