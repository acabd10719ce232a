"""The tile-GEMM main loop (rocke.helpers.tile_gemm) on its own: plan rules and refusal texts through
the caller's fail, the copy-width cap a generator asks for, and kernels on the simulator whose
operand address generators decide what the copies read (dense matrices; a generator masking every
other K tile; one that ignores the loop's k0 and must fail), and the shared epilogue walk's order."""

from __future__ import annotations

import numpy as np
import pytest

from rocke.arch import get_arch, mma_op
from rocke.helpers import (
    AccElement,
    MatrixOperand,
    TileAccumulators,
    TileGemm,
    TileShape,
    buffer_rsrc,
    const_i32,
    masked_offset,
    plan_tile_gemm,
)
from rocke.ir import Builder, KernelDef, Value, f16, f32, i32, ptr, verify
from rocke.sim import run


class Refused(Exception):
    pass


def _fail(field: str, rule: str) -> None:
    raise Refused(f"{field}: {rule}")


def _shape(**changes: object) -> TileShape:
    fields: dict[str, object] = dict(bm=32, bn=32, bk=32, wm=2, wn=2, lds_pad=8, double_buffer=False, dtype="f16",
                                     op=mma_op("mfma_f32_16x16x16_f16"), a_k_contiguous=True, b_k_contiguous=True)
    fields.update(changes)
    return TileShape(**fields)  # type: ignore[arg-type]


def test_plan_numbers() -> None:
    plan = plan_tile_gemm(_shape(), get_arch("gfx942"), _fail)
    assert (plan.threads, plan.rep_m, plan.rep_n, plan.wave_tile_m, plan.stages) == (256, 1, 1, 16, 1)
    assert plan.a.split.vec == 4  # 32 x 32 f16 over 256 threads: 4 elements each
    assert plan.lds_bytes == 2 * 32 * 40 * 2


def test_max_vec_caps_the_copy_width() -> None:
    wide = plan_tile_gemm(_shape(bm=64, bk=64), get_arch("gfx942"), _fail)
    capped = plan_tile_gemm(_shape(bm=64, bk=64, a_max_vec=2), get_arch("gfx942"), _fail)
    assert (wide.a.split.vec, wide.b.split.vec) == (8, 8)
    assert (capped.a.split.vec, capped.b.split.vec) == (2, 8)
    assert capped.a.split.per_thread == 4 * wide.a.split.per_thread


@pytest.mark.parametrize(("changes", "arch", "message"), [
    ({}, "gfx1100", "op_id: is not available on gfx1100 (it runs on gfx942, gfx950)"),
    ({"wm": 4, "wn": 8, "bm": 64, "bn": 128}, "gfx942",
     "wm: wm * wn = 32 waves of 64 lanes exceed the 1024-thread workgroup limit of gfx942"),
    ({"bm": 16, "bk": 16, "wm": 1, "wn": 8, "bn": 128, "a_max_vec": 1}, "gfx942",
     "bm: the A tile of 16 x 16 elements does not split evenly over 512 threads"),
    ({"bm": 256, "bn": 256, "bk": 128, "lds_pad": 0}, "gfx942",
     "bk: the LDS tiles need 131072 bytes (1 stage(s) of (256 + 256) x (128 + 0) f16), over the 65536 bytes "
     "of gfx942"),
])
def test_refusals_go_through_the_callers_fail(changes: dict[str, object], arch: str, message: str) -> None:
    with pytest.raises(Refused) as info:
        plan_tile_gemm(_shape(**changes), get_arch(arch), _fail)
    assert str(info.value) == message


class EvenTiles(MatrixOperand):
    """A dense k-contiguous matrix whose odd K tiles read zero (the valid count forced to 0)."""

    def __init__(self, *args: object, bk: int, **kwargs: object):
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.bk = bk

    def address(self, b: Builder, state: object, k0: Value | None) -> tuple[Value, Value]:
        index, valid = super().address(b, state, k0)
        if k0 is None:
            return index, valid
        odd = b.cmpi("ne", b.and_(b.divu(k0, const_i32(b, self.bk)), const_i32(b, 1)), const_i32(b, 0))
        return index, b.select(odd, const_i32(b, 0), valid)


class StuckAtFirstTile(MatrixOperand):
    """A broken generator: it ignores k0, so every K tile re-reads the first one."""

    def address(self, b: Builder, state: object, k0: Value | None) -> tuple[Value, Value]:
        return super().address(b, state, None)


def _kernel(shape: TileShape, arch: str, generator: type[MatrixOperand]) -> KernelDef:
    """C (f32, M x N row-major) = A (M x K row-major) @ B (K x N column-major) with `generator` for A."""
    target = get_arch(arch)
    plan = plan_tile_gemm(shape, target, _fail)
    b = Builder("tile_gemm_probe", max_workgroup_size=plan.threads)
    a_ptr = b.param("a", ptr(f16, "global"), noalias=True, readonly=True)
    b_ptr = b.param("b", ptr(f16, "global"), noalias=True, readonly=True)
    c_ptr = b.param("c", ptr(f32, "global"), noalias=True, writeonly=True)
    m, n, k = b.param("m", i32), b.param("n", i32), b.param("k", i32)
    loop = TileGemm(b, plan, f16)
    row0, col0 = loop.place_grid(b, shape.bm, shape.bn)
    a_rsrc = buffer_rsrc(b, a_ptr, b.mul(m, k), 2)
    b_rsrc = buffer_rsrc(b, b_ptr, b.mul(k, n), 2)
    extra = {"bk": shape.bk} if generator is EvenTiles else {}
    a_gen = generator("a", a_rsrc, True, row0, m, k, **extra)
    b_gen = MatrixOperand("b", b_rsrc, True, col0, n, k)

    def epilogue(acc: TileAccumulators) -> None:
        c_rsrc = buffer_rsrc(b, c_ptr, b.mul(m, n), 4)
        rows, cols = acc.coords(b)

        def store(e: AccElement) -> None:
            offset = masked_offset(b, e.inside(b, m, n), b.add(b.mul(e.row, n), e.col), 4)
            b.buffer_store(c_rsrc, offset, e.value)

        acc.each_element(b, rows, cols, store)

    loop.run(b, a_gen, b_gen, k, epilogue)
    kernel = b.finish()
    verify(kernel, arch=target)
    return kernel


def _simulate(shape: TileShape, arch: str, generator: type[MatrixOperand], m: int, n: int, k: int
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(m * 100 + n * 10 + k)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    bt = rng.uniform(-1, 1, (n, k)).astype(np.float16)  # B column-major: B^T row-major
    c = np.full(m * n, 1000.0, np.float32)
    grid = (-(-n // shape.bn), -(-m // shape.bm), 1)
    plan = plan_tile_gemm(shape, get_arch(arch), _fail)
    run(_kernel(shape, arch, generator), arch=arch, grid=grid, block=(plan.threads, 1, 1),
        args=[a.reshape(-1), bt.reshape(-1), c, m, n, k], check_races=False)
    return c.reshape(m, n), a.astype(np.float64), bt.astype(np.float64)


@pytest.mark.parametrize(("arch", "op", "double_buffer"), [("gfx942", "mfma_f32_16x16x16_f16", True),
                                                           ("gfx1100", "wmma_f32_16x16x16_f16_gfx11", False)])
def test_generators_decide_what_the_copies_read(arch: str, op: str, double_buffer: bool) -> None:
    shape = _shape(op=mma_op(op), double_buffer=double_buffer, bk=16)
    m, n, k = 37, 45, 70  # tails in M, N and K; five K tiles
    got, a, bt = _simulate(shape, arch, MatrixOperand, m, n, k)
    np.testing.assert_allclose(got, a @ bt.T, rtol=1e-5, atol=1e-4)
    got, a, bt = _simulate(shape, arch, EvenTiles, m, n, k)
    even = np.zeros(k, bool)
    for t in range(0, k, 2 * shape.bk):
        even[t:t + shape.bk] = True
    np.testing.assert_allclose(got, (a * even) @ bt.T, rtol=1e-5, atol=1e-4)
    assert not np.allclose(got, a @ bt.T, rtol=1e-5, atol=1e-4)


def test_negative_control_a_generator_ignoring_k0_fails() -> None:
    shape = _shape(bk=16)
    got, a, bt = _simulate(shape, "gfx942", StuckAtFirstTile, 32, 32, 48)
    assert not np.allclose(got, a @ bt.T, rtol=1e-5, atol=1e-4)



def test_epilogue_walk_visits_every_element_once_in_order() -> None:
    """each_element: rm, rn, slot order with each element's column key; column_values: one load per
    distinct column; atom: once per atom, before its slots."""
    shape = _shape(bm=64, bn=64, wm=2, wn=2)  # 2 x 2 atoms per wave
    plan = plan_tile_gemm(shape, get_arch("gfx942"), _fail)
    b = Builder("walk_probe", max_workgroup_size=plan.threads)
    loop = TileGemm(b, plan, f16)
    loop.place_grid(b, shape.bm, shape.bn)
    zero = b.splat(b.const(0.0, f32), plan.op.c.length)
    acc = TileAccumulators(plan, [zero] * (plan.rep_m * plan.rep_n), loop.lane, const_i32(b, 0), const_i32(b, 0))
    rows, cols = acc.coords(b)
    loads: list[Value] = []
    values = acc.column_values(b, cols, lambda col: loads.append(col) or col)
    keys = [(rn, offset) for rn in range(plan.rep_n) for offset in dict.fromkeys(plan.c_col.slot_offsets)]
    assert list(values) == keys and len(loads) == len(keys)
    seen: list[tuple[int, int] | str] = []
    acc.each_element(b, rows, cols, lambda e: seen.append(e.col_key), atom=lambda v: seen.append("atom") or v)
    length = plan.op.c.length
    expected: list[tuple[int, int] | str] = []
    for _rm in range(plan.rep_m):
        for rn in range(plan.rep_n):
            expected += ["atom"] + [(rn, plan.c_col.slot_offsets[s]) for s in range(length)]
    assert (plan.rep_m, plan.rep_n) == (2, 2) and seen == expected
