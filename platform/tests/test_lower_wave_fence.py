"""sync.wave_lds_fence: lanes of one wave exchange data through LDS without a workgroup barrier.

Without it, LLVM proves `t ^ 1 != t` for one thread and schedules the load of lds[t ^ 1] before
the store to lds[t], so a lane reads stale LDS (the simulator reports the race); with it the
real backend keeps the store first on gfx942 and gfx1100, both engines emit the same text, and
the simulator accepts the exchange.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from rocke import isa
from rocke.engine import lower
from rocke.ir import Builder, KernelDef, f32, i32, ptr
from rocke.sim import DataRace, run

FLAVOR = isa.running_flavor()


def exchange(sync: str) -> KernelDef:
    """o[t] = x[t ^ 1] through LDS; sync: 'none', 'fence' (wave LDS fence) or 'barrier'."""
    b = Builder("lds_exchange", max_workgroup_size=64)
    x = b.param("x", ptr(f32, "global"), readonly=True)
    o = b.param("o", ptr(f32, "global"))
    t = b.thread_id_x()
    s = b.lds_alloc(f32, 64)
    b.lds_store(s, t, b.load(x, t))
    if sync == "fence":
        b.wave_lds_fence()
    elif sync == "barrier":
        b.barrier()
    b.store(o, t, b.lds_load(s, b.xor_(t, b.const(1, i32))))
    return b.finish()


def simulate(kernel: KernelDef, arch: str) -> np.ndarray:
    x = np.arange(64, dtype=np.float32)
    out = np.zeros(64, np.float32)
    run(kernel, arch=arch, grid=1, block=64, args=[x, out])
    return out


@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
def test_simulator_reports_a_same_wave_exchange_without_fence(arch: str) -> None:
    with pytest.raises(DataRace, match=r"reads element 1 of mem\.lds_alloc %3, written by another lane of the same "
                                       r"wave since the last barrier \(a missing sync\.barrier or "
                                       r"sync\.wave_lds_fence\) \(workgroup \(0, 0, 0\) thread \(0, 0, 0\)\)"):
        simulate(exchange("none"), arch)
    want = (np.arange(64) ^ 1).astype(np.float32).tolist()
    assert simulate(exchange("fence"), arch).tolist() == want
    assert simulate(exchange("barrier"), arch).tolist() == want


def test_wave_fence_orders_only_its_own_wave() -> None:
    """Across waves the fence is no barrier: t ^ 32 on wave32 (gfx1100) reads the other wave."""
    b = Builder("cross_wave", max_workgroup_size=64)
    o = b.param("o", ptr(f32, "global"))
    t = b.thread_id_x()
    s = b.lds_alloc(f32, 64)
    b.lds_store(s, t, b.sitofp(t, f32))
    b.wave_lds_fence()
    b.store(o, t, b.lds_load(s, b.xor_(t, b.const(32, i32))))
    kernel = b.finish()
    with pytest.raises(DataRace, match=r"written by another wave since the last barrier \(a missing sync\.barrier\)"):
        run(kernel, arch="gfx1100", grid=1, block=64, args=[np.zeros(64, np.float32)])
    out = np.zeros(64, np.float32)
    run(kernel, arch="gfx942", grid=1, block=64, args=[out])  # one wave64: fine
    assert out.tolist() == (np.arange(64) ^ 32).astype(np.float32).tolist()


def test_write_after_read_in_a_wave_needs_the_fence_too() -> None:
    """Lanes read a neighbour's element, then overwrite their own: WAR across lanes."""
    for fenced in (False, True):
        b = Builder("war_wave", max_workgroup_size=64)
        o = b.param("o", ptr(f32, "global"))
        t = b.thread_id_x()
        s = b.lds_alloc(f32, 64)
        b.lds_store(s, t, b.sitofp(t, f32))
        b.barrier()
        b.store(o, t, b.lds_load(s, b.xor_(t, b.const(1, i32))))
        if fenced:
            b.wave_lds_fence()
        b.lds_store(s, t, b.const(0.0, f32))
        kernel = b.finish()
        if fenced:
            run(kernel, arch="gfx942", grid=1, block=64, args=[np.zeros(64, np.float32)])
        else:
            with pytest.raises(DataRace, match=r"writes element 0 of mem\.lds_alloc %2, read by another lane of the "
                                               r"same wave"):
                run(kernel, arch="gfx942", grid=1, block=64, args=[np.zeros(64, np.float32)])


def test_both_engines_lower_the_fence_alike() -> None:
    text = lower(exchange("fence"), arch="gfx942", flavor="llvm22", engine="both")
    assert '  fence syncscope("wavefront") acq_rel\n' in text


def _lds_order(asm: str) -> list[str]:
    return re.findall(r"^\s+(ds_(?:write|read|store|load)_b32)\b", asm, re.MULTILINE)


@pytest.mark.validity
@pytest.mark.validity_llvm20
@pytest.mark.skipif(FLAVOR is None, reason="the running LLVM validates no rocke flavor")
@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
def test_real_llvm_keeps_the_store_before_the_load(arch: str) -> None:
    store, load = ("ds_write_b32", "ds_read_b32") if arch == "gfx942" else ("ds_store_b32", "ds_load_b32")
    unfenced = isa.compile_ll(lower(exchange("none"), arch=arch, flavor=FLAVOR), arch, FLAVOR)
    assert _lds_order(unfenced) == [load, store]  # the bug the fence exists for: the load goes first
    fenced = isa.compile_ll(lower(exchange("fence"), arch=arch, flavor=FLAVOR), arch, FLAVOR)
    assert _lds_order(fenced) == [store, load]
