"""Memory semantics: raw buffers (out of range reads 0, stores dropped), global bounds, atomics,
LDS initialization, bounds and races, alignment promises, and how arrays are bound."""

from __future__ import annotations

import numpy as np
import pytest

from rocke.ir import Builder, KernelDef, f16, f32, i32, ptr, vec
from rocke.sim import (
    ATOMIC_ORDERS,
    DataRace,
    LaunchError,
    MemoryFault,
    UndefinedBehavior,
    UninitializedRead,
    compare,
    run,
)


# ---------------------------------------------------------------------- raw buffers
def buffer_kernel(width: int) -> KernelDef:
    """Thread t: v = buffer_load(src rsrc over n_src bytes, offs[t]) as vec<i32 x width> (or i32);
    dst[t * width ...] = v; buffer_store(dst2 rsrc over n_dst bytes, offs[t], v)."""
    b = Builder(f"buffer{width}", max_workgroup_size=64)
    src = b.param("src", ptr(i32, "global"), readonly=True)
    offs = b.param("offs", ptr(i32, "global"), readonly=True)
    dst = b.param("dst", ptr(i32, "global"))
    dst2 = b.param("dst2", ptr(i32, "global"))
    n_src = b.param("n_src", i32)
    n_dst = b.param("n_dst", i32)
    tid = b.thread_id_x()
    ty = vec(i32, width) if width > 1 else i32
    offset = b.load(offs, tid)
    value = b.buffer_load(b.make_rsrc(src, n_src), offset, ty)
    b.store(dst, b.mul(tid, b.const(width, i32)), value)
    b.buffer_store(b.make_rsrc(dst2, n_dst), offset, value)
    return b.finish()


def test_buffer_out_of_range_reads_zero_and_drops_stores() -> None:
    src = np.arange(100, 132, dtype=np.int32)  # 128 bytes
    offsets = np.array([0, 16, 32, 48, 64, 96, 112, -(2**31), 2**31 - 16, -16], np.int32)
    threads = offsets.size
    dst = np.zeros(threads * 4, np.int32)
    dst2 = np.full(32, -7, np.int32)
    run(buffer_kernel(4), arch="gfx942", grid=1, block=threads, args=[src, offsets, dst, dst2, 64, 80])
    # num_records = 64 bytes: offsets 0..48 are in range, the rest (including 2^31 and -16, taken
    # as unsigned) read zero although the array itself is larger.
    want = [src[o // 4:o // 4 + 4].tolist() if 0 <= o < 64 else [0, 0, 0, 0] for o in offsets.tolist()]
    assert dst.reshape(threads, 4).tolist() == want
    stored = np.full(32, -7, np.int32)
    for o, row in zip(offsets.tolist(), want, strict=True):
        if 0 <= o and o + 16 <= 80:
            stored[o // 4:o // 4 + 4] = row
    assert dst2.tolist() == stored.tolist()  # writes at offsets >= 80 were dropped


def test_buffer_access_straddling_num_records_is_reported() -> None:
    src = np.arange(32, dtype=np.int32)
    with pytest.raises(MemoryFault, match=r"^mem\.buffer_load %\d+ at body\[\d+\]: bytes 48\.\.63 straddle "
                                          r"num_records = 60 \(a partly out-of-range buffer access is "
                                          r"chipset-dependent\) \(workgroup \(0, 0, 0\) thread \(1, 0, 0\)\)$"):
        run(buffer_kernel(4), arch="gfx942", grid=1, block=2,
            args=[src, np.array([0, 48], np.int32), np.zeros(8, np.int32), np.zeros(32, np.int32), 60, 60])


def test_buffer_num_records_beyond_the_array_is_a_fault() -> None:
    src = np.arange(8, dtype=np.int32)  # 32 bytes, but the resource claims 64
    with pytest.raises(MemoryFault, match=r"bytes 32\.\.35 of param #0 %0 'src' are inside num_records but outside "
                                          r"its bound array of 32 bytes"):
        run(buffer_kernel(1), arch="gfx1100", grid=1, block=1,
            args=[src, np.array([32], np.int32), np.zeros(1, np.int32), np.zeros(16, np.int32), 64, 64])


def test_buffer_scalar_and_sub_dword_types() -> None:
    b = Builder("halves", max_workgroup_size=64)
    src = b.param("src", ptr(f16, "global"), readonly=True)
    dst = b.param("dst", ptr(f16, "global"))
    n_bytes = b.param("n_bytes", i32)
    tid = b.thread_id_x()
    value = b.buffer_load(b.make_rsrc(src, n_bytes), b.mul(tid, b.const(2, i32)), f16)
    b.store(dst, tid, value)
    src_a = np.arange(16, dtype=np.float16)
    dst_a = np.full(16, -1, np.float16)
    run(b.finish(), arch="gfx1201", grid=1, block=16, args=[src_a, dst_a, 22])
    assert dst_a.tolist() == [*range(11), 0, 0, 0, 0, 0]


# ---------------------------------------------------------------------- global memory
def copy_kernel(*, readonly: bool = True, writeonly: bool = False) -> KernelDef:
    b = Builder("copy", max_workgroup_size=256)
    src = b.param("src", ptr(f32, "global"), readonly=readonly, writeonly=writeonly)
    dst = b.param("dst", ptr(f32, "global"))
    shift = b.param("shift", i32)
    tid = b.add(b.mul(b.block_id_x(), b.block_dim_x()), b.thread_id_x())
    b.store(dst, tid, b.load(src, b.add(tid, shift)))
    return b.finish()


def test_global_out_of_bounds_load_is_reported() -> None:
    src, dst = np.zeros(64, np.float32), np.zeros(64, np.float32)
    with pytest.raises(MemoryFault, match=r"^mem\.load %\d+ at body\[\d+\]: reads elements 64\.\.64 of param #0 %0 "
                                          r"'src', outside its bound array of 64 elements \(workgroup \(1, 0, 0\) "
                                          r"thread \(31, 0, 0\)\)$"):
        run(copy_kernel(), arch="gfx942", grid=2, block=32, args=[src, dst, 1])
    with pytest.raises(MemoryFault, match=r"reads elements -1\.\.-1"):
        run(copy_kernel(), arch="gfx942", grid=2, block=32, args=[src, dst, -1])


def test_global_out_of_bounds_store_is_reported() -> None:
    src, dst = np.zeros(64, np.float32), np.zeros(32, np.float32)
    with pytest.raises(MemoryFault, match=r"^mem\.store at body\[\d+\]: writes elements 32\.\.32 of param #1 %1 "
                                          r"'dst'"):
        run(copy_kernel(), arch="gfx942", grid=2, block=32, args=[src, dst, 0])


def test_readonly_and_writeonly_promises_are_checked() -> None:
    b = Builder("rw", max_workgroup_size=64)
    x = b.param("x", ptr(f32, "global"), readonly=True)
    b.store(x, b.thread_id_x(), b.const(1.0, f32))
    with pytest.raises(MemoryFault, match=r"writes param #0 %0 'x', which is declared readonly"):
        run(b.finish(), arch="gfx942", grid=1, block=4, args=[np.zeros(4, np.float32)])
    with pytest.raises(MemoryFault, match=r"reads param #0 %0 'src', which is declared writeonly"):
        run(copy_kernel(readonly=False, writeonly=True), arch="gfx942", grid=1, block=4,
            args=[np.zeros(4, np.float32), np.zeros(4, np.float32), 0])
    frozen = np.zeros(4, np.float32)
    frozen.flags.writeable = False
    with pytest.raises(MemoryFault, match=r"whose numpy array is not writeable"):
        run(copy_kernel(), arch="gfx942", grid=1, block=4, args=[np.zeros(4, np.float32), frozen, 0])


def test_alignment_promise_is_checked() -> None:
    b = Builder("aligned", max_workgroup_size=64)
    x = b.param("x", ptr(f16, "global"), readonly=True)
    y = b.param("y", ptr(f16, "global"))
    start = b.param("start", i32)
    tid = b.thread_id_x()
    at = b.add(start, b.mul(tid, b.const(4, i32)))
    b.store(y, at, b.load(x, at, lanes=4, align=8), align=8)
    kernel = b.finish()
    x_a, y_a = np.arange(64, dtype=np.float16), np.zeros(64, np.float16)
    run(kernel, arch="gfx942", grid=1, block=8, args=[x_a, y_a, 4])
    assert y_a[4:36].tolist() == x_a[4:36].tolist()
    with pytest.raises(UndefinedBehavior, match=r"byte address 2 is not a multiple of align = 8"):
        run(kernel, arch="gfx942", grid=1, block=8, args=[x_a, y_a, 1])


def test_non_contiguous_arrays_are_written_back() -> None:
    src = np.arange(64, dtype=np.float32)
    backing = np.zeros(128, np.float32)
    dst = backing[::2]  # a strided view: simulated on a contiguous copy, then copied back
    run(copy_kernel(), arch="gfx942", grid=2, block=32, args=[src, dst, 0])
    assert backing[::2].tolist() == src.tolist() and not backing[1::2].any()


def test_args_by_name_and_raw_bit_arrays() -> None:
    src = np.arange(8, dtype=np.float32)
    dst = np.zeros(8, np.uint32)  # same-size integers hold the f32 bits
    run(copy_kernel(), arch="gfx942", grid=1, block=8, args={"dst": dst, "shift": 0, "src": src})
    assert dst.view(np.float32).tolist() == src.tolist()


# ---------------------------------------------------------------------- atomics
def test_atomic_add_counts_every_lane() -> None:
    b = Builder("hist", max_workgroup_size=256)
    out = b.param("out", ptr(f32, "global"))
    vals = b.param("vals", ptr(f32, "global"), readonly=True)
    gid = b.add(b.mul(b.block_id_x(), b.block_dim_x()), b.thread_id_x())
    v = b.load(vals, gid)
    b.atomic_add_f32(out, b.const(0, i32), v)  # every lane of every workgroup: one address
    b.atomic_add_f32(out, b.add(b.remu(gid, b.const(3, i32)), b.const(1, i32)), b.const(1.0, f32))
    values = np.arange(1024, dtype=np.float32)
    kernel = b.finish()
    for order in ATOMIC_ORDERS:  # integers below 2^24: exact in every order
        out_a = np.zeros(4, np.float32)
        run(kernel, arch="gfx1100", grid=4, block=256, args=[out_a, values], atomic_order=order)
        assert out_a.tolist() == [float(values.sum()), 342.0, 341.0, 341.0], order


def sum_kernel(*, skip_last: bool = False) -> KernelDef:
    """Every thread adds vals[t] to out[0] (one uniform address), or to out[t % 2] (two)."""
    b = Builder("atomic_sum", max_workgroup_size=128)
    out = b.param("out", ptr(f32, "global"))
    vals = b.param("vals", ptr(f32, "global"), readonly=True)
    split = b.param("split", i32)
    tid = b.thread_id_x()
    where = b.and_(tid, split)

    def add() -> None:
        b.atomic_add_f32(out, where, b.load(vals, tid))

    if skip_last:  # a broken kernel: the last thread's value is lost
        b.if_(b.cmpi("slt", tid, b.sub(b.block_dim_x(), b.const(1, i32))), add)
    else:
        add()
    return b.finish()


def atomic_sum(order: str, base: float, values: np.ndarray, split: int, skip_last: bool = False,
               arch: str = "gfx942") -> np.ndarray:
    out = np.full(2, base, np.float32)
    run(sum_kernel(skip_last=skip_last), arch=arch, grid=1, block=values.size, args=[out, values, split],
        atomic_order=order)
    return out


def test_atomic_add_orders_the_hardware_can_produce() -> None:
    """1e8 + 64 x 1.0 into one address: LLVM's atomic optimizer sums the wave first (64.0, then one
    add: 100000064), lane-by-lane adds lose every 1.0 (ulp(1e8) = 8): 100000000."""
    ones = np.ones(64, np.float32)
    assert atomic_sum("wave", 1e8, ones, 0)[0] == np.float32(100000064.0)
    assert atomic_sum("lanes", 1e8, ones, 0)[0] == np.float32(1e8)
    assert atomic_sum("reverse", 1e8, ones, 0)[0] == np.float32(1e8)
    # two addresses in one wave: no pre-reduction, lane by lane
    assert atomic_sum("wave", 1e8, ones, 1).tolist() == [1e8, 1e8]
    # wave32: two waves, each summed first (32.0 each), waves in order
    assert atomic_sum("wave", 1e8, ones, 0, arch="gfx1100")[0] == np.float32(100000064.0)
    # a wave sums lowest lane first: ((2^24 + 1) -> 2^24) - 2^24 + 1 = 1; highest lane first:
    # ((1 - 2^24) + 1) + 2^24 = 2, all exact
    vals = np.array([2.0**24, 1.0, -(2.0**24), 1.0] + [0.0] * 60, np.float32)
    assert atomic_sum("wave", 0.0, vals, 0)[0] == 1.0
    assert atomic_sum("reverse", 0.0, vals, 0)[0] == 2.0
    with pytest.raises(LaunchError, match=r"atomic_order must be one of wave, lanes, reverse, got 'any'"):
        atomic_sum("any", 0.0, ones, 0)


def test_atomic_outputs_pass_the_tolerance_rule_in_every_order() -> None:
    """simulator.md's rule: n adds into an element are within n * 2^-24 * (|initial| + sum |v|)
    of the exact sum, in any order; a kernel that loses one add fails it."""
    rng = np.random.default_rng(3)
    for base, values in ((1e8, np.ones(64, np.float32)), (0.0, rng.uniform(-1, 1, 128).astype(np.float32))):
        exact = base + values.astype(np.float64).sum()
        bound = values.size * 2.0**-24 * (abs(base) + np.abs(values.astype(np.float64)).sum())
        for order in ATOMIC_ORDERS:
            assert compare(atomic_sum(order, base, values, 0)[:1], np.array([exact]), rtol=0, atol=bound).ok, order
            broken = atomic_sum(order, 0.0, np.abs(values), 0, skip_last=True)[:1]
            assert not compare(broken, np.array([np.abs(values.astype(np.float64)).sum()]), rtol=0,
                               atol=values.size * 2.0**-24 * np.abs(values.astype(np.float64)).sum()).ok, order


# ---------------------------------------------------------------------- LDS
def lds_kernel(*, write: str, read: str, barrier: bool = True, count: int = 64) -> KernelDef:
    """Thread t of workgroup g writes lds[write(t)] = t (if write != 'none'), optionally syncs,
    then reads lds[read(t)] into out[g * block + t]. Index expressions: 't', 't+1', 't^32'."""
    b = Builder("lds_case", max_workgroup_size=256)
    out = b.param("out", ptr(f32, "global"))
    lds = b.lds_alloc(f32, count, name="buf")
    tid = b.thread_id_x()

    def index(expr: str):
        return {"t": tid, "t+1": b.add(tid, b.const(1, i32)), "t^32": b.xor_(tid, b.const(32, i32))}[expr]

    if write != "none":
        b.lds_store(lds, index(write), b.sitofp(tid, f32))
    if barrier:
        b.barrier()
    gid = b.add(b.mul(b.block_id_x(), b.block_dim_x()), tid)
    b.store(out, gid, b.lds_load(lds, index(read)))
    return b.finish()


def test_lds_round_trip_and_per_workgroup_storage() -> None:
    out = np.zeros(256, np.float32)
    run(lds_kernel(write="t", read="t^32", count=128), arch="gfx942", grid=2, block=128, args=[out])
    t = np.arange(128)
    assert out.tolist() == np.tile(t ^ 32, 2).astype(np.float32).tolist()


def test_lds_uninitialized_read_is_reported() -> None:
    with pytest.raises(UninitializedRead, match=r"^mem\.lds_load %\d+ at body\[\d+\]: reads element 0 of "
                                                r"mem\.lds_alloc %1, which no store has written "
                                                r"\(workgroup \(0, 0, 0\) thread \(0, 0, 0\)\)$"):
        run(lds_kernel(write="none", read="t"), arch="gfx942", grid=1, block=64, args=[np.zeros(64, np.float32)])


def test_lds_initialization_is_tracked_per_element() -> None:
    """Threads 0..62 write elements 1..63; element 0 stays unwritten and thread 0 reads it."""
    b = Builder("partial_init", max_workgroup_size=64)
    out = b.param("out", ptr(f32, "global"))
    lds = b.lds_alloc(f32, 64)
    tid = b.thread_id_x()
    b.if_(b.cmpi("slt", tid, b.const(63, i32)),
          lambda: b.lds_store(lds, b.add(tid, b.const(1, i32)), b.const(1.0, f32)))
    b.barrier()
    b.store(out, tid, b.lds_load(lds, tid))
    with pytest.raises(UninitializedRead, match=r"reads element 0 of mem\.lds_alloc %1"):
        run(b.finish(), arch="gfx942", grid=1, block=64, args=[np.zeros(64, np.float32)])


def test_lds_access_outside_the_allocation_is_reported() -> None:
    with pytest.raises(MemoryFault, match=r"reads elements 64\.\.64 of mem\.lds_alloc %1, outside its allocation of "
                                          r"64 elements \(workgroup \(0, 0, 0\) thread \(63, 0, 0\)\)"):
        run(lds_kernel(write="t", read="t+1"), arch="gfx942", grid=1, block=64, args=[np.zeros(64, np.float32)])


def test_lds_races_between_waves_are_reported() -> None:
    out = np.zeros(128, np.float32)
    # read after write by another wave, no barrier (waves 0 and 1 of gfx942 exchange halves)
    with pytest.raises(DataRace, match=r"reads element 32 of mem\.lds_alloc %1, written by another wave since the "
                                       r"last barrier"):
        run(lds_kernel(write="t", read="t^32", barrier=False, count=128), arch="gfx1100", grid=1, block=64,
            args=[out])
    # two waves writing the same element in one store
    with pytest.raises(DataRace, match=r"written by another wave in the same store"):
        b = Builder("waw", max_workgroup_size=128)
        lds = b.lds_alloc(f32, 64)
        b.lds_store(lds, b.remu(b.thread_id_x(), b.const(64, i32)), b.const(0.0, f32))
        run(b.finish(), arch="gfx1100", grid=1, block=128, args=[])
    # two lanes of one wave writing the same element in one store
    with pytest.raises(DataRace, match=r"written by another lane of the same wave in the same store"):
        b = Builder("waw_lanes", max_workgroup_size=64)
        lds = b.lds_alloc(f32, 32)
        b.lds_store(lds, b.shru(b.thread_id_x(), b.const(1, i32)), b.const(0.0, f32))
        run(b.finish(), arch="gfx942", grid=1, block=64, args=[])
    # the same thread rereading its own writes needs no barrier
    run(lds_kernel(write="t", read="t", barrier=False), arch="gfx1100", grid=1, block=64, args=[out[:64]])


def test_lds_write_after_read_race_is_reported() -> None:
    """Waves read a shared element, then one rewrites it without a barrier (a double-buffer bug)."""
    b = Builder("war", max_workgroup_size=128)
    out = b.param("out", ptr(f32, "global"))
    lds = b.lds_alloc(f32, 4)
    tid = b.thread_id_x()
    zero = b.const(0, i32)
    b.if_(b.cmpi("eq", tid, zero), lambda: b.lds_store(lds, zero, b.const(2.0, f32)))
    b.barrier()
    b.store(out, tid, b.lds_load(lds, zero))
    b.if_(b.cmpi("eq", tid, zero), lambda: b.lds_store(lds, zero, b.const(3.0, f32)))
    with pytest.raises(DataRace, match=r"writes element 0 of mem\.lds_alloc %1, read by another wave"):
        run(b.finish(), arch="gfx942", grid=1, block=128, args=[np.zeros(128, np.float32)])


def test_race_checking_can_be_switched_off() -> None:
    out = np.zeros(64, np.float32)
    run(lds_kernel(write="t", read="t^32", barrier=False), arch="gfx1100", grid=1, block=64, args=[out],
        check_races=False)
    assert out.tolist() == (np.arange(64) ^ 32).astype(np.float32).tolist()


def test_lds_vector_pointee_and_ptr_add() -> None:
    b = Builder("vec_lds", max_workgroup_size=64)
    out = b.param("out", ptr(f16, "global"))
    lds = b.lds_alloc(vec(f16, 4), 32, align=8)
    tid = b.thread_id_x()
    v = b.splat(b.sitofp(tid, f16), 4)
    b.lds_store(lds, tid, v, align=8)
    b.barrier()
    shifted = b.ptr_add(lds, b.const(1, i32))
    b.store(out, b.mul(tid, b.const(4, i32)), b.lds_load(shifted, b.remu(tid, b.const(31, i32))))
    out_a = np.zeros(128, np.float16)
    run(b.finish(), arch="gfx942", grid=1, block=32, args=[out_a])
    want = np.repeat((np.arange(32) % 31 + 1).astype(np.float16), 4)
    assert out_a.tolist() == want.tolist()


def test_batching_does_not_change_results() -> None:
    one, many = np.zeros(4096, np.float32), np.zeros(4096, np.float32)
    info_one = run(lds_kernel(write="t", read="t^32", count=128), arch="gfx942", grid=32, block=128, args=[one])
    info_many = run(lds_kernel(write="t", read="t^32", count=128), arch="gfx942", grid=32, block=128, args=[many],
                    max_batch_lanes=300)
    assert info_one.batches == 1 and info_many.batches == 16
    assert one.tolist() == many.tolist() == np.tile(np.arange(128) ^ 32, 32).astype(np.float32).tolist()


def test_buffer_store_into_constant_memory_is_reported() -> None:
    b = Builder("const_store", max_workgroup_size=64)
    table = b.param("table", ptr(i32, "constant"))
    b.buffer_store(b.make_rsrc(table, b.const(64, i32)), b.const(0, i32), b.thread_id_x())
    with pytest.raises(MemoryFault, match=r"^mem\.buffer_store at body\[\d+\]: writes param #0 %0 'table', which is "
                                          r"constant memory \(workgroup \(0, 0, 0\) thread \(0, 0, 0\)\)$"):
        run(b.finish(), arch="gfx942", grid=1, block=1, args=[np.zeros(16, np.int32)])
