"""Cross-lane ops on wave64 and wave32 against per-lane references written from the ISA
pseudo-code (a lane reading an inactive lane gets 0)."""

from __future__ import annotations

import numpy as np
import pytest

from rocke.arch import get_arch
from rocke.ir import Builder, KernelDef, f32, i32, ptr
from rocke.sim import SimUnsupported, UndefinedBehavior, run

RNG = np.random.default_rng(11)
ARCHS = ["gfx942", "gfx1100"]
BLOCK = 128


def masked_kernel(emit) -> KernelDef:
    """Threads with keep[t] != 0 compute emit(b, x, aux, lane) and store it to out[t]; the rest
    are masked off for the cross-lane op."""
    b = Builder("xlane_case", max_workgroup_size=BLOCK)
    px = b.param("x", ptr(f32, "global"), readonly=True)
    paux = b.param("aux", ptr(i32, "global"), readonly=True)
    pkeep = b.param("keep", ptr(i32, "global"), readonly=True)
    out = b.param("out", ptr(f32, "global"))
    tid = b.thread_id_x()
    lane = b.lane_id()
    x = b.load(px, tid)
    aux = b.load(paux, tid)
    keep = b.cmpi("ne", b.load(pkeep, tid), b.const(0, i32))
    b.if_(keep, lambda: b.store(out, tid, emit(b, x, aux, lane)))
    return b.finish()


def run_masked(emit, arch: str, keep: np.ndarray, aux: np.ndarray | None = None, block: int = BLOCK) -> np.ndarray:
    x = np.arange(1, block + 1, dtype=np.float32)
    out = np.full(block, -1.0, np.float32)
    aux = np.zeros(block, np.int32) if aux is None else aux
    run(masked_kernel(emit), arch=arch, grid=1, block=block, args=[x, aux, keep.astype(np.int32), out])
    return out


def reference(sources: list[int | None], keep: np.ndarray, ws: int, block: int = BLOCK) -> np.ndarray:
    """sources[t]: the lane (within t's wave) thread t reads; inactive or missing sources give 0."""
    x = np.arange(1, block + 1, dtype=np.float32)
    out = np.full(block, -1.0, np.float32)
    for t in range(block):
        if not keep[t]:
            continue
        src = sources[t]
        flat = (t // ws) * ws + src if src is not None else None
        out[t] = x[flat] if flat is not None and flat < block and keep[flat] else 0.0
    return out


def swizzle_source(pattern: int, lane: int) -> int:
    """ds_swizzle_b32 from the ISA manual's pseudo-code, one lane at a time."""
    if pattern & 0x8000:
        return (lane // 4) * 4 + ((pattern >> ((lane % 4) * 2)) & 3)
    and_mask, or_mask, xor_mask = pattern & 31, (pattern >> 5) & 31, (pattern >> 10) & 31
    return ((((lane % 32) & and_mask) | or_mask) ^ xor_mask) + (lane // 32) * 32


def keeps() -> list[np.ndarray]:
    return [np.ones(BLOCK, bool), RNG.random(BLOCK) < 0.6]


SWIZZLE_PATTERNS = [0x041F, 0x001F, 0x0010, 0x7FFF, 0x8000, 0x80E4, 0x801B, 0xBF4E,
                    *RNG.integers(0, 0x8000, 6).tolist(), *(0x8000 | RNG.integers(0, 0x4000, 3)).tolist()]


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("pattern", SWIZZLE_PATTERNS, ids=lambda p: f"0x{p:04X}")
def test_ds_swizzle(arch: str, pattern: int) -> None:
    ws = get_arch(arch).wave_size
    for keep in keeps():
        got = run_masked(lambda b, x, aux, lane: b.ds_swizzle(x, pattern), arch, keep)
        want = reference([swizzle_source(pattern, t % ws) for t in range(BLOCK)], keep, ws)
        assert got.tolist() == want.tolist()


def test_ds_swizzle_rotate_and_fft_modes_are_refused() -> None:
    with pytest.raises(SimUnsupported, match=r"pattern 0xC400 selects the rotate or FFT swizzle mode"):
        run_masked(lambda b, x, aux, lane: b.ds_swizzle(x, 0xC400), "gfx942", np.ones(BLOCK, bool))


@pytest.mark.parametrize("arch", ARCHS)
def test_ds_bpermute(arch: str) -> None:
    ws = get_arch(arch).wave_size
    addr = RNG.integers(-(2**31), 2**31, BLOCK, dtype=np.int64).astype(np.int32)  # high bits are ignored
    for keep in keeps():
        got = run_masked(lambda b, x, aux, lane: b.ds_bpermute(aux, x), arch, keep, addr)
        sources = [int((int(a) & 0xFFFFFFFF) >> 2) % ws for a in addr]
        assert got.tolist() == reference(sources, keep, ws).tolist()


@pytest.mark.parametrize("arch", ARCHS)
def test_shuffle_xor(arch: str) -> None:
    ws = get_arch(arch).wave_size
    for mask in [m for m in (1, 2, 5, 16, 31, 32, 63) if m < ws]:
        for keep in keeps():
            got = run_masked(lambda b, x, aux, lane, m=mask: b.shuffle_xor(x, m), arch, keep)
            assert got.tolist() == reference([(t % ws) ^ mask for t in range(BLOCK)], keep, ws).tolist()


def test_shuffle_xor_mask_beyond_wave32() -> None:
    with pytest.raises(UndefinedBehavior, match=r"mask = 32 is not below the wave size 32 of gfx1100"):
        run_masked(lambda b, x, aux, lane: b.shuffle_xor(x, 32), "gfx1100", np.ones(BLOCK, bool))


@pytest.mark.parametrize("arch", ARCHS)
def test_readfirstlane(arch: str) -> None:
    ws = get_arch(arch).wave_size
    for keep in keeps():
        got = run_masked(lambda b, x, aux, lane: b.readfirstlane(x), arch, keep)
        firsts = []
        for t in range(BLOCK):
            wave = np.flatnonzero(keep[(t // ws) * ws:(t // ws + 1) * ws])
            firsts.append(int(wave[0]) if wave.size else None)
        assert got.tolist() == reference(firsts, keep, ws).tolist()


def test_padding_lanes_of_a_partial_wave_read_as_zero() -> None:
    """48 threads on wave64: lanes 48-63 do not exist, so lanes 16-31 read 0 across 32."""
    block = 48
    got = run_masked(lambda b, x, aux, lane: b.shuffle_xor(x, 32), "gfx942", np.ones(block, bool), block=block)
    want = [float(t ^ 32) + 1.0 if (t ^ 32) < block else 0.0 for t in range(block)]
    assert got.tolist() == want


def test_lane_and_wave_ids_with_a_partial_wave() -> None:
    b = Builder("ids", max_workgroup_size=256)
    out = b.param("out", ptr(i32, "global"))
    tid = b.thread_id_x()
    base = b.mul(b.add(b.mul(b.block_id_x(), b.block_dim_x()), tid), b.const(3, i32))
    b.store(out, base, b.lane_id())
    b.store(out, b.add(base, b.const(1, i32)), b.wave_id())
    b.store(out, b.add(base, b.const(2, i32)), b.wave_size())
    kernel = b.finish()
    for arch, ws in (("gfx942", 64), ("gfx1201", 32)):
        out = np.zeros(2 * 100 * 3, np.int32)
        run(kernel, arch=arch, grid=2, block=100, args=[out])
        t = np.tile(np.arange(100), 2)
        assert out.reshape(-1, 3).tolist() == np.stack([t % ws, t // ws, np.full(200, ws)], axis=1).tolist()
