"""rocke.helpers.reduce on the simulator: wave butterflies and workgroup reductions, wave64/wave32."""

from __future__ import annotations

import numpy as np
import pytest

from rocke.arch import get_arch
from rocke.helpers import block_reduce, wave_reduce
from rocke.ir import Builder, f32, i32, ptr
from rocke.sim import run

WAVES = 4


@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
@pytest.mark.parametrize(("kind", "dtype"), [("add", "f32"), ("max", "f32"), ("add", "i32"), ("max", "i32")])
def test_wave_and_block_reduce(arch: str, kind: str, dtype: str) -> None:
    wave = get_arch(arch).wave_size
    threads = WAVES * wave
    ty = f32 if dtype == "f32" else i32
    b = Builder("reduce", max_workgroup_size=threads)
    x = b.param("x", ptr(ty, "global"), readonly=True)
    out = b.param("out", ptr(ty, "global"))
    partials = b.lds_alloc(ty, WAVES)
    tid = b.thread_id_x()
    value = b.load(x, tid)
    b.store(out, tid, wave_reduce(b, value, kind, wave))
    b.store(out, b.add(tid, b.const(threads, i32)), block_reduce(b, value, kind, partials, wave, WAVES))
    rng = np.random.default_rng(3)
    npt = np.float32 if dtype == "f32" else np.int32
    data = rng.integers(-50, 50, threads).astype(npt)  # small integers: f32 sums are exact
    got = np.zeros(2 * threads, npt)
    run(b.finish(), arch=arch, grid=1, block=threads, args=[data, got])
    fold = np.sum if kind == "add" else np.max
    per_wave = np.repeat([fold(data[w * wave:(w + 1) * wave]) for w in range(WAVES)], wave)
    assert got[:threads].tolist() == per_wave.tolist()
    assert got[threads:].tolist() == [fold(data)] * threads
