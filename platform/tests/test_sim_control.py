"""Control flow and divergence: scf.if masks and results, scf.for trip counts per wave and
workgroup, barriers in divergent code, uniformity of loop bounds, MMA needing the whole wave,
and undefined integer division."""

from __future__ import annotations

import numpy as np
import pytest

from rocke.ir import Builder, KernelDef, Value, f16, f32, i32, i64, ptr
from rocke.sim import DivergenceError, UndefinedBehavior, run


def test_if_results_are_selected_per_lane() -> None:
    """out[t] = t % 3 == 0 ? (t % 2 == 0 ? 100 + t : 200 + t) : -t, with nested ifs."""
    b = Builder("ifs", max_workgroup_size=128)
    out = b.param("out", ptr(i32, "global"))
    t = b.thread_id_x()
    c = {v: b.const(v, i32) for v in (0, 2, 3, 100, 200)}

    def inner() -> list[Value]:
        (r,) = b.if_(b.cmpi("eq", b.remu(t, c[2]), c[0]), lambda: [b.add(c[100], t)], lambda: [b.add(c[200], t)])
        return [r]

    (value,) = b.if_(b.cmpi("eq", b.remu(t, c[3]), c[0]), inner, lambda: [b.sub(c[0], t)])
    b.store(out, t, value)
    out_a = np.zeros(100, np.int32)
    run(b.finish(), arch="gfx942", grid=1, block=100, args=[out_a])
    want = [(100 + t if t % 2 == 0 else 200 + t) if t % 3 == 0 else -t for t in range(100)]
    assert out_a.tolist() == want


def loop_kernel(bound: str, *, step: int = 1, barrier_in_loop: bool = False, iv64: bool = False) -> KernelDef:
    """out[gid] = sum over iv in [lo, hi) step of iv, with hi chosen by `bound`:
    'param' (uniform), 'block' (block_id_x + 2: differs between workgroups), 'wave' (wave_id * 3:
    differs between waves of a workgroup), 'lane' (lane_id: differs within a wave)."""
    b = Builder(f"loop_{bound}", max_workgroup_size=256)
    out = b.param("out", ptr(i64 if iv64 else i32, "global"))
    n = b.param("n", i32)
    tid = b.thread_id_x()
    gid = b.add(b.mul(b.block_id_x(), b.block_dim_x()), tid)
    hi = {"param": lambda: n, "block": lambda: b.add(b.block_id_x(), b.const(2, i32)),
          "wave": lambda: b.mul(b.wave_id(), b.const(3, i32)), "lane": lambda: b.lane_id()}[bound]()
    ty = i64 if iv64 else i32
    lo = b.const(0, ty)
    if iv64:
        hi = b.exts(hi, i64)

    def body(iv: Value, acc: Value) -> list[Value]:
        if barrier_in_loop:
            b.barrier()
        return [b.add(acc, iv)]

    (total,) = b.for_(lo, hi, b.const(step, ty), [b.const(0, ty)], body)
    b.store(out, gid, total)
    return b.finish()


def _sum_below(hi: int, step: int = 1) -> int:
    return sum(range(0, hi, step))


def test_loop_uniform_and_per_workgroup_trip_counts() -> None:
    out = np.zeros(256, np.int32)
    run(loop_kernel("param", step=3), arch="gfx942", grid=4, block=64, args=[out, 10])
    assert out.tolist() == [_sum_below(10, 3)] * 256
    run(loop_kernel("block"), arch="gfx942", grid=4, block=64, args=[out, 0])
    assert out.tolist() == [_sum_below(g + 2) for g in range(4) for _ in range(64)]
    out64 = np.zeros(256, np.int64)
    run(loop_kernel("block", iv64=True), arch="gfx942", grid=4, block=64, args=[out64, 0])
    assert out64.tolist() == [_sum_below(g + 2) for g in range(4) for _ in range(64)]
    run(loop_kernel("param"), arch="gfx942", grid=4, block=64, args=[out, -5])  # no trips: the init value
    assert out.tolist() == [0] * 256


def test_loop_trip_counts_may_differ_between_waves() -> None:
    out = np.zeros(128, np.int32)
    run(loop_kernel("wave"), arch="gfx1100", grid=1, block=128, args=[out, 0])
    assert out.tolist() == [_sum_below(3 * (t // 32)) for t in range(128)]


def test_loop_bounds_differing_within_a_wave_are_reported() -> None:
    with pytest.raises(DivergenceError, match=r"^scf\.for %\d+ at body\[\d+\]: 'ub' differs between the active lanes "
                                              r"of a wave \(1 here, 0 on the wave's first active lane\); loop bounds "
                                              r"must be uniform \(workgroup \(0, 0, 0\) thread \(1, 0, 0\)\)$"):
        run(loop_kernel("lane"), arch="gfx942", grid=1, block=64, args=[np.zeros(64, np.int32), 0])


def test_barrier_in_a_loop_with_wave_dependent_trips_is_reported() -> None:
    with pytest.raises(DivergenceError, match=r"^sync\.barrier at body\[\d+\]\.body\[0\]: reached inside divergent "
                                              r"control flow: 96 of 128 threads of workgroup \(0, 0, 0\) are active; "
                                              r"first missing: workgroup \(0, 0, 0\) thread \(0, 0, 0\)$"):
        run(loop_kernel("wave", barrier_in_loop=True), arch="gfx1100", grid=1, block=128,
            args=[np.zeros(128, np.int32), 0])
    # per-workgroup trip counts keep whole workgroups together: barriers are fine
    out = np.zeros(128, np.int32)
    run(loop_kernel("block", barrier_in_loop=True), arch="gfx1100", grid=2, block=64, args=[out, 0])
    assert out.tolist() == [_sum_below(2)] * 64 + [_sum_below(3)] * 64


def test_barrier_under_a_divergent_if_is_reported() -> None:
    b = Builder("bad_barrier", max_workgroup_size=64)
    t = b.thread_id_x()
    b.if_(b.cmpi("slt", t, b.const(10, i32)), lambda: b.barrier())
    with pytest.raises(DivergenceError, match=r"^sync\.barrier at body\[\d+\]\.then\[0\]: reached inside divergent "
                                              r"control flow: 10 of 64 threads"):
        run(b.finish(), arch="gfx942", grid=1, block=64, args=[])


def test_barrier_under_a_workgroup_uniform_if_is_fine() -> None:
    b = Builder("uniform_barrier", max_workgroup_size=64)
    out = b.param("out", ptr(i32, "global"))
    odd = b.cmpi("ne", b.remu(b.block_id_x(), b.const(2, i32)), b.const(0, i32))

    def then() -> None:
        b.barrier()
        b.store(out, b.block_id_x(), b.const(1, i32))

    b.if_(odd, then)
    out_a = np.zeros(4, np.int32)
    run(b.finish(), arch="gfx942", grid=4, block=64, args=[out_a])
    assert out_a.tolist() == [0, 1, 0, 1]


def test_non_positive_step_is_reported() -> None:
    with pytest.raises(UndefinedBehavior, match=r"step = 0 is not positive"):
        run(loop_kernel("param", step=0), arch="gfx942", grid=1, block=64, args=[np.zeros(64, np.int32), 4])


def test_integer_division_by_zero_is_reported_only_on_active_lanes() -> None:
    b = Builder("div", max_workgroup_size=64)
    out = b.param("out", ptr(i32, "global"))
    d = b.param("d", ptr(i32, "global"), readonly=True)
    t = b.thread_id_x()
    dv = b.load(d, t)
    b.if_(b.cmpi("ne", dv, b.const(0, i32)), lambda: b.store(out, t, b.divs(b.const(100, i32), dv)))
    b.store(out, b.add(t, b.const(64, i32)), b.divu(b.const(7, i32), dv))
    kernel = b.finish()
    with pytest.raises(UndefinedBehavior, match=r"^arith\.divu %\d+ at body\[\d+\]: integer division by zero "
                                                r"\(workgroup \(0, 0, 0\) thread \(1, 0, 0\)\)$"):
        run(kernel, arch="gfx942", grid=1, block=64, args=[np.zeros(128, np.int32), np.array([1, 0] * 32, np.int32)])


def test_signed_division_overflow_is_reported() -> None:
    b = Builder("div_overflow", max_workgroup_size=64)
    out = b.param("out", ptr(i32, "global"))
    b.store(out, b.thread_id_x(), b.rems(b.const(-(2**31), i32), b.const(-1, i32)))
    with pytest.raises(UndefinedBehavior, match=r"signed division overflow \(MIN / -1\)"):
        run(b.finish(), arch="gfx942", grid=1, block=1, args=[np.zeros(1, np.int32)])


def mma_kernel(op_id: str, *, guard: int | None = None, split_replicas: bool = False) -> KernelDef:
    """d[lane] = mma(ones, ones, 0)[0]; guard runs the MMA only for lanes below it; split_replicas
    gives gfx11 lanes 16-31 different A values than lanes 0-15."""
    b = Builder("mma_case", max_workgroup_size=64)
    out = b.param("out", ptr(f32, "global"))
    lane = b.lane_id()
    length = {"mfma_f32_16x16x16_f16": 4, "wmma_f32_16x16x16_f16_gfx11": 16}[op_id]
    one = b.const(1.0, f16)
    a_val = b.select(b.cmpi("sge", lane, b.const(16, i32)), b.const(2.0, f16), one) if split_replicas else one
    c_len = {"mfma_f32_16x16x16_f16": 4, "wmma_f32_16x16x16_f16_gfx11": 8}[op_id]

    def compute() -> list[Value]:
        d = b.mma(op_id, b.splat(a_val, length), b.splat(one, length), b.splat(b.const(0.0, f32), c_len))
        return [b.extract(d, 0)]

    if guard is None:
        (value,) = compute()
    else:
        (value,) = b.if_(b.cmpi("slt", lane, b.const(guard, i32)), compute, lambda: [b.const(0.0, f32)])
    b.store(out, lane, value)
    return b.finish()


def test_mma_needs_the_whole_wave() -> None:
    out = np.zeros(64, np.float32)
    run(mma_kernel("mfma_f32_16x16x16_f16"), arch="gfx942", grid=1, block=64, args=[out])
    assert out.tolist() == [16.0] * 64
    with pytest.raises(DivergenceError, match=r"^mma\.mma %\d+ at body\[\d+\]\.then\[\d+\]: wave 0 of workgroup "
                                              r"\(0, 0, 0\) has 40 of 64 lanes active \(masked-off lanes\); an MMA "
                                              r"needs the whole wave"):
        run(mma_kernel("mfma_f32_16x16x16_f16", guard=40), arch="gfx942", grid=1, block=64, args=[out])
    with pytest.raises(DivergenceError, match=r"has 48 of 64 lanes active \(padding lanes past the workgroup's last "
                                              r"thread\)"):
        run(mma_kernel("mfma_f32_16x16x16_f16"), arch="gfx942", grid=1, block=48, args=[out])


def test_gfx11_wmma_replicas_must_agree() -> None:
    out = np.zeros(32, np.float32)
    run(mma_kernel("wmma_f32_16x16x16_f16_gfx11"), arch="gfx1100", grid=1, block=32, args=[out])
    assert out.tolist() == [16.0] * 32
    with pytest.raises(UndefinedBehavior, match=r"operand 'a' of wmma_f32_16x16x16_f16_gfx11 is replicated, but the "
                                                r"copies of element \(0, 0\) differ"):
        run(mma_kernel("wmma_f32_16x16x16_f16_gfx11", split_replicas=True), arch="gfx1100", grid=1, block=32,
            args=[out])
