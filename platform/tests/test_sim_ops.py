"""Per-op semantics of rocke.sim, one op at a time, checked bit for bit against independent
references (Python integers, numpy / ml_dtypes arithmetic, exact rationals)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from rocke.ir import Builder, KernelDef, ScalarType, Type, VecType, bf16, f16, f32, i1, i8, i16, i32, i64, ptr, vec
from rocke.sim import run

BF16 = np.dtype(ml_dtypes.bfloat16)
NP = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "f16": np.float16, "bf16": BF16,
      "f32": np.float32}
INT_TYPES = [i8, i16, i32, i64]
FLOAT_TYPES = [f16, bf16, f32]
RNG = np.random.default_rng(7)
N = 200  # elements per test: one partial second workgroup of 128 threads


def _elem(ty: Type) -> ScalarType:
    if isinstance(ty, VecType):
        return ty.elem
    assert isinstance(ty, ScalarType)
    return ty


def _storage(ty: ScalarType) -> ScalarType:
    return i8 if ty == i1 else ty  # i1 travels through memory as i8 (0 or 1)


def op_kernel(opcode: str, in_types: Sequence[Type], out_type: Type, attrs: dict[str, Any] | None = None,
              explicit: bool = False) -> KernelDef:
    """out[i] = OP(in0[i], in1[i], ...) for i < n; vectors are loaded and stored whole."""
    b = Builder("op_" + opcode.replace(".", "_"), max_workgroup_size=128)
    params = [b.param(f"in{k}", ptr(_storage(_elem(t)), "global")) for k, t in enumerate(in_types)]
    out = b.param("out", ptr(_storage(_elem(out_type)), "global"))
    n = b.param("n", i32)
    gid = b.add(b.mul(b.block_id_x(), b.block_dim_x()), b.thread_id_x(), name="gid")

    def body() -> None:
        values = []
        for p, t in zip(params, in_types, strict=True):
            if isinstance(t, VecType):
                values.append(b.load(p, b.mul(gid, b.const(t.lanes, i32)), lanes=t.lanes))
            elif t == i1:
                values.append(b.trunc(b.load(p, gid), i1))
            else:
                values.append(b.load(p, gid))
        (result,) = b.emit(opcode, values, attrs or {}, [out_type] if explicit else None)
        if isinstance(out_type, VecType):
            b.store(out, b.mul(gid, b.const(out_type.lanes, i32)), result)
        elif out_type == i1:
            b.store(out, gid, b.extu(result, i8))
        else:
            b.store(out, gid, result)

    b.if_(b.cmpi("slt", gid, n), body)
    return b.finish()


def run_op(opcode: str, inputs: Sequence[np.ndarray], in_types: Sequence[Type], out_type: Type,
           attrs: dict[str, Any] | None = None, explicit: bool = False, arch: str = "gfx942") -> np.ndarray:
    n = inputs[0].shape[0]
    lanes = out_type.lanes if isinstance(out_type, VecType) else 1
    out_dtype = np.int8 if _elem(out_type) == i1 else NP[_elem(out_type).name]
    out = np.zeros(n * lanes, out_dtype)
    args = [np.ascontiguousarray(x).reshape(-1) for x in inputs]
    run(op_kernel(opcode, in_types, out_type, attrs, explicit), arch=arch, grid=-(-n // 128), block=128,
        args=[*args, out, n])
    return out.reshape((n, lanes) if lanes > 1 else (n,))


def ints(ty: ScalarType, n: int = N) -> np.ndarray:
    """Random values with the edge cases first."""
    info = np.iinfo(NP[ty.name])
    edges = [info.min, info.max, -1, 0, 1, info.min + 1, info.max - 1]
    rand = RNG.integers(info.min, info.max, n - len(edges), dtype=NP[ty.name], endpoint=True)
    return np.concatenate([np.array(edges, NP[ty.name]), rand])


def floats(ty: ScalarType, n: int = N) -> np.ndarray:
    """Random bit patterns (all exponents) plus specials."""
    dtype = np.dtype(NP[ty.name])
    raw = RNG.integers(0, 1 << (8 * dtype.itemsize), n, dtype=np.uint64).astype(f"u{dtype.itemsize}")
    values = raw.view(dtype).copy()
    with np.errstate(invalid="ignore"):
        values[np.isnan(values.astype(np.float32))] = np.nan  # quiet NaNs only (signaling ones warn on casts)
    values[:8] = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.5, 3.0]).astype(dtype)
    return values


def wrap(values: list[int], bits: int) -> list[int]:
    out = []
    for v in values:
        v &= (1 << bits) - 1
        out.append(v - (1 << bits) if v >= 1 << (bits - 1) else v)
    return out


def same_bits(got: np.ndarray, want: np.ndarray) -> bool:
    """Equal, NaNs anywhere in the same places (payloads aside), zeros with the same sign."""
    g = np.asarray(got).astype(np.float64)
    w = np.asarray(want).astype(np.float64)
    nan = np.isnan(g) & np.isnan(w)
    return bool(np.all(nan | ((g == w) & (np.signbit(g) == np.signbit(w)))))


# ---------------------------------------------------------------------- integers
@pytest.mark.parametrize("ty", INT_TYPES, ids=str)
@pytest.mark.parametrize(("opcode", "fn"), [("arith.add", lambda a, b: a + b), ("arith.sub", lambda a, b: a - b),
                                             ("arith.mul", lambda a, b: a * b)])
def test_int_wraparound(ty: ScalarType, opcode: str, fn) -> None:
    a, b = ints(ty), ints(ty)[::-1].copy()
    got = run_op(opcode, [a, b], [ty, ty], ty)
    assert got.tolist() == wrap([fn(int(x), int(y)) for x, y in zip(a, b, strict=True)], ty.bits)


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


@pytest.mark.parametrize("ty", INT_TYPES, ids=str)
def test_int_division(ty: ScalarType) -> None:
    a = ints(ty)
    b = ints(ty)[::-1].copy()
    b[b == 0] = 3
    b[(a == np.iinfo(a.dtype).min) & (b == -1)] = 5
    pairs = list(zip(a.tolist(), b.tolist(), strict=True))
    bits = ty.bits
    assert run_op("arith.divs", [a, b], [ty, ty], ty).tolist() == wrap([_trunc_div(x, y) for x, y in pairs], bits)
    assert run_op("arith.rems", [a, b], [ty, ty], ty).tolist() == wrap(
        [x - _trunc_div(x, y) * y for x, y in pairs], bits)
    mod = 1 << bits
    upairs = [(x % mod, y % mod) for x, y in pairs]
    assert run_op("arith.divu", [a, b], [ty, ty], ty).tolist() == wrap([x // y for x, y in upairs], bits)
    assert run_op("arith.remu", [a, b], [ty, ty], ty).tolist() == wrap([x % y for x, y in upairs], bits)


@pytest.mark.parametrize("ty", INT_TYPES, ids=str)
def test_int_bitwise_and_shifts(ty: ScalarType) -> None:
    a = ints(ty)
    amount = RNG.integers(0, ty.bits, N).astype(NP[ty.name])
    bits, mod = ty.bits, 1 << ty.bits
    av, sv = a.tolist(), amount.tolist()
    assert run_op("arith.shl", [a, amount], [ty, ty], ty).tolist() == wrap([x << s for x, s in zip(av, sv,
                                                                                                  strict=True)], bits)
    assert run_op("arith.shrs", [a, amount], [ty, ty], ty).tolist() == [x >> s for x, s in zip(av, sv, strict=True)]
    assert run_op("arith.shru", [a, amount], [ty, ty], ty).tolist() == wrap(
        [(x % mod) >> s for x, s in zip(av, sv, strict=True)], bits)
    b = ints(ty)[::-1].copy()
    bv = b.tolist()
    for opcode, fn in (("arith.and", lambda x, y: x & y), ("arith.or", lambda x, y: x | y),
                       ("arith.xor", lambda x, y: x ^ y)):
        assert run_op(opcode, [a, b], [ty, ty], ty).tolist() == [fn(x, y) for x, y in zip(av, bv, strict=True)]


def test_shift_amount_beyond_width_is_taken_modulo() -> None:
    a = np.array([1, -8, 12345], np.int32)
    amount = np.array([33, 35, 64], np.int32)
    assert run_op("arith.shl", [a, amount], [i32, i32], i32).tolist() == [2, -64, 12345]


@pytest.mark.parametrize("ty", INT_TYPES, ids=str)
def test_int_min_max_and_compare(ty: ScalarType) -> None:
    a, b = ints(ty), ints(ty)[::-1].copy()
    av, bv = a.tolist(), b.tolist()
    mod = 1 << ty.bits
    pairs = list(zip(av, bv, strict=True))
    upairs = [(x % mod, y % mod) for x, y in pairs]
    assert run_op("arith.mins", [a, b], [ty, ty], ty).tolist() == [min(x, y) for x, y in pairs]
    assert run_op("arith.maxs", [a, b], [ty, ty], ty).tolist() == [max(x, y) for x, y in pairs]
    assert run_op("arith.minu", [a, b], [ty, ty], ty).tolist() == wrap([min(x, y) for x, y in upairs], ty.bits)
    assert run_op("arith.maxu", [a, b], [ty, ty], ty).tolist() == wrap([max(x, y) for x, y in upairs], ty.bits)
    preds = {"eq": (pairs, lambda x, y: x == y), "ne": (pairs, lambda x, y: x != y),
             "slt": (pairs, lambda x, y: x < y), "sle": (pairs, lambda x, y: x <= y),
             "sgt": (pairs, lambda x, y: x > y), "sge": (pairs, lambda x, y: x >= y),
             "ult": (upairs, lambda x, y: x < y), "ule": (upairs, lambda x, y: x <= y),
             "ugt": (upairs, lambda x, y: x > y), "uge": (upairs, lambda x, y: x >= y)}
    for pred, (items, fn) in preds.items():
        got = run_op("arith.cmpi", [a, b], [ty, ty], i1, {"pred": pred})
        assert got.tolist() == [int(fn(x, y)) for x, y in items], pred


def test_i1_arithmetic_is_modulo_two() -> None:
    a = np.array([0, 0, 1, 1], np.int8)
    b = np.array([0, 1, 0, 1], np.int8)
    assert run_op("arith.add", [a, b], [i1, i1], i1).tolist() == [0, 1, 1, 0]
    assert run_op("arith.mul", [a, b], [i1, i1], i1).tolist() == [0, 0, 0, 1]
    # i1 true is -1 when signed: slt(true, false) holds
    assert run_op("arith.cmpi", [a, b], [i1, i1], i1, {"pred": "slt"}).tolist() == [0, 0, 1, 0]
    assert run_op("arith.exts", [a], [i1], i32, explicit=True).tolist() == [0, 0, -1, -1]
    assert run_op("arith.extu", [a], [i1], i32, explicit=True).tolist() == [0, 0, 1, 1]


def test_int_casts() -> None:
    a = ints(i32)
    assert run_op("arith.exts", [a], [i32], i64, explicit=True).tolist() == a.tolist()
    assert run_op("arith.extu", [a], [i32], i64, explicit=True).tolist() == [x % 2**32 for x in a.tolist()]
    assert run_op("arith.trunc", [a], [i32], i8, explicit=True).tolist() == wrap(a.tolist(), 8)
    assert run_op("arith.trunc", [a], [i32], i1, explicit=True).tolist() == [x & 1 for x in a.tolist()]
    v = ints(i16, 64).reshape(16, 4)
    got = run_op("arith.exts", [v], [vec(i16, 4)], vec(i32, 4), explicit=True)
    assert got.tolist() == v.tolist()


# ---------------------------------------------------------------------- floats
def _reference_binary(fn, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """numpy float16 / float32 arithmetic, and ml_dtypes bfloat16 arithmetic."""
    with np.errstate(all="ignore"):
        return fn(a, b)


@pytest.mark.parametrize("ty", FLOAT_TYPES, ids=str)
@pytest.mark.parametrize(("opcode", "fn"), [("arith.add", np.add), ("arith.sub", np.subtract),
                                             ("arith.mul", np.multiply), ("arith.divf", np.divide)])
def test_float_arithmetic_rounds_like_numpy(ty: ScalarType, opcode: str, fn) -> None:
    a, b = floats(ty), floats(ty)[::-1].copy()
    got = run_op(opcode, [a, b], [ty, ty], ty)
    assert got.dtype == np.dtype(NP[ty.name])
    assert same_bits(got, _reference_binary(fn, a, b))


@pytest.mark.parametrize("ty", FLOAT_TYPES, ids=str)
def test_float_fma_single_rounding(ty: ScalarType) -> None:
    from test_sim_rounding import round_exact

    dtype = np.dtype(NP[ty.name])
    a, b, c = (RNG.uniform(-4, 4, 64).astype(dtype) for _ in range(3))
    got = run_op("arith.fma", [a, b, c], [ty, ty, ty], ty)
    want = [round_exact(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)), dtype)
            for x, y, z in zip(a, b, c, strict=True)]
    assert got.astype(np.float64).tolist() == want


@pytest.mark.parametrize("ty", FLOAT_TYPES, ids=str)
def test_float_min_max_neg_rem(ty: ScalarType) -> None:
    a, b = floats(ty), floats(ty)[::-1].copy()
    assert same_bits(run_op("arith.minf", [a, b], [ty, ty], ty), np.fmin(a.astype(np.float64), b.astype(np.float64)))
    assert same_bits(run_op("arith.maxf", [a, b], [ty, ty], ty), np.fmax(a.astype(np.float64), b.astype(np.float64)))
    neg = run_op("arith.negf", [a], [ty], ty)
    bits = f"u{a.dtype.itemsize}"
    assert (neg.view(bits) ^ a.view(bits)).tolist() == [1 << (8 * a.dtype.itemsize - 1)] * N  # only the sign flips
    with np.errstate(all="ignore"):
        want = np.fmod(a.astype(np.float64), b.astype(np.float64))
    assert same_bits(run_op("arith.remf", [a, b], [ty, ty], ty), want)


def test_float_compare_predicates() -> None:
    a = np.array([1.0, 1.0, 2.0, np.nan, 1.0, np.nan], np.float32)
    b = np.array([1.0, 2.0, 1.0, 1.0, np.nan, np.nan], np.float32)
    expect = {
        "oeq": [1, 0, 0, 0, 0, 0], "one": [0, 1, 1, 0, 0, 0], "olt": [0, 1, 0, 0, 0, 0], "ole": [1, 1, 0, 0, 0, 0],
        "ogt": [0, 0, 1, 0, 0, 0], "oge": [1, 0, 1, 0, 0, 0], "ord": [1, 1, 1, 0, 0, 0], "ueq": [1, 0, 0, 1, 1, 1],
        "une": [0, 1, 1, 1, 1, 1], "ult": [0, 1, 0, 1, 1, 1], "ule": [1, 1, 0, 1, 1, 1], "ugt": [0, 0, 1, 1, 1, 1],
        "uge": [1, 0, 1, 1, 1, 1], "uno": [0, 0, 0, 1, 1, 1],
    }
    for pred, want in expect.items():
        assert run_op("arith.cmpf", [a, b], [f32, f32], i1, {"pred": pred}).tolist() == want, pred


def test_float_casts_round_like_numpy_and_ml_dtypes() -> None:
    x = floats(f32)
    with np.errstate(over="ignore"):
        assert same_bits(run_op("arith.truncf", [x], [f32], f16, explicit=True), x.astype(np.float16))
        assert same_bits(run_op("arith.truncf", [x], [f32], bf16, explicit=True), x.astype(BF16))
    h, g = floats(f16), floats(bf16)
    assert same_bits(run_op("arith.extf", [h], [f16], f32, explicit=True), h.astype(np.float32))
    assert same_bits(run_op("arith.extf", [g], [bf16], f32, explicit=True), g.astype(np.float32))
    v = RNG.standard_normal(64).astype(np.float32).reshape(16, 4)
    got = run_op("arith.truncf", [v], [vec(f32, 4)], vec(bf16, 4), explicit=True)
    assert same_bits(got, v.astype(BF16))


def test_int_float_conversions() -> None:
    from test_sim_rounding import round_exact

    a = ints(i64)
    for ty in FLOAT_TYPES:
        dtype = np.dtype(NP[ty.name])
        got = run_op("arith.sitofp", [a], [i64], ty, explicit=True).astype(np.float64).tolist()
        assert got == [round_exact(Fraction(v), dtype) for v in a.tolist()]
        got = run_op("arith.uitofp", [a], [i64], ty, explicit=True).astype(np.float64).tolist()
        assert got == [round_exact(Fraction(v % 2**64), dtype) for v in a.tolist()]
    x = np.array([np.nan, np.inf, -np.inf, -3.7, 3.7, 1e10, -1e10, 127.9, -128.5, 255.5], np.float32)
    assert run_op("arith.fptosi", [x], [f32], i32, explicit=True).tolist() == [
        0, 2**31 - 1, -(2**31), -3, 3, 2**31 - 1, -(2**31), 127, -128, 255]
    assert run_op("arith.fptosi", [x], [f32], i8, explicit=True).tolist() == [0, 127, -128, -3, 3, 127, -128, 127,
                                                                              -128, 127]
    assert run_op("arith.fptoui", [x], [f32], i8, explicit=True).tolist() == wrap(
        [0, 255, 0, 0, 3, 255, 0, 127, 0, 255], 8)


@pytest.mark.parametrize("ty", FLOAT_TYPES, ids=str)
def test_math_ops(ty: ScalarType) -> None:
    dtype = np.dtype(NP[ty.name])
    x = np.abs(floats(ty))
    x[8:12] = np.array([0.0, 4.0, 0.25, 2.0]).astype(dtype)
    wide = x.astype(np.float64)
    with np.errstate(all="ignore"):
        # sqrt is correctly rounded: exactly numpy's own float32 results, rounded on. rcp and rsqrt
        # flush f32 denormals and round in between as the lowered instructions do: test_sim_math.py.
        assert same_bits(run_op("math.sqrt", [x], [ty], ty), np.sqrt(wide).astype(np.float32).astype(dtype))
        for opcode, fn in (("math.exp2", np.exp2), ("math.log2", np.log2)):
            got = run_op(opcode, [x], [ty], ty).astype(np.float64)
            want = fn(wide)
            info = ml_dtypes.finfo(dtype)
            normal = np.isfinite(want) & (np.abs(want) <= float(info.max)) & (np.abs(want) >= float(info.tiny))
            special = ~np.isfinite(want)
            assert same_bits(got[special], want[special]), opcode
            # within half an ulp (|want| * 2^-nmant bounds the ulp from above) plus a binary64 ulp
            ulp = np.abs(want[normal]) * 2.0 ** -info.nmant
            assert np.all(np.abs(got[normal] - want[normal]) <= 0.5 * ulp * 1.0001), opcode
    assert run_op("math.exp2", [np.array([3.0], np.float32)], [f32], f32).tolist() == [8.0]
    logs = run_op("math.log2", [np.array([0.0, -1.0], np.float32)], [f32], f32).astype(np.float64)
    assert logs[0] == -np.inf and np.isnan(logs[1])


def test_constant_and_select() -> None:
    b = Builder("consts", max_workgroup_size=64)
    out = b.param("out", ptr(f32, "global"))
    iout = b.param("iout", ptr(i64, "global"))
    tid = b.thread_id_x()
    odd = b.cmpi("ne", b.and_(tid, b.const(1, i32)), b.const(0, i32))
    b.store(out, tid, b.select(odd, b.const(-0.0, f32), b.const(1.5, f32)))
    b.store(iout, tid, b.select(odd, b.const(-(2**63), i64), b.const(2**63 - 1, i64)))
    out_a, iout_a = np.zeros(64, np.float32), np.zeros(64, np.int64)
    run(b.finish(), arch="gfx942", grid=1, block=64, args=[out_a, iout_a])
    assert same_bits(out_a, np.where(np.arange(64) % 2 == 1, -0.0, 1.5))
    assert iout_a.tolist() == [2**63 - 1 if t % 2 == 0 else -(2**63) for t in range(64)]


# ---------------------------------------------------------------------- vectors
def test_vector_ops() -> None:
    v = RNG.standard_normal(64).astype(np.float16).reshape(16, 4)
    got = run_op("vec.bitcast", [v], [vec(f16, 4)], vec(i32, 2), explicit=True)
    assert got.tolist() == v.view(np.int32).tolist()  # little-endian: element 0 in the low half
    got = run_op("vec.bitcast", [v], [vec(f16, 4)], i64, explicit=True)
    assert got.tolist() == v.view(np.int64).reshape(-1).tolist()
    assert run_op("vec.extract", [v], [vec(f16, 4)], f16, {"index": 2}).tolist() == v[:, 2].tolist()
    x = RNG.standard_normal(16).astype(np.float16)
    got = run_op("vec.insert", [v, x], [vec(f16, 4), f16], vec(f16, 4), {"index": 1})
    want = v.copy()
    want[:, 1] = x
    assert got.tolist() == want.tolist()
    assert run_op("vec.splat", [x], [f16], vec(f16, 3), {"lanes": 3}).tolist() == np.repeat(x[:, None], 3, 1).tolist()
    y = RNG.standard_normal(16).astype(np.float32)
    assert run_op("vec.bitcast", [y], [f32], i32, explicit=True).tolist() == y.view(np.int32).tolist()
    w = (RNG.standard_normal(32) * 100).astype(np.float32).reshape(16, 2)
    got = run_op("arith.add", [w, w], [vec(f32, 2), vec(f32, 2)], vec(f32, 2))
    assert got.tolist() == (w + w).tolist()
