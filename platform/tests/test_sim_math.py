"""math.* against a model of the instruction sequence the lowering emits (platform/docs/simulator.md,
"math"): exhaustive over every f16 and bf16 bit pattern, edge values in f32.

The reference model here is written independently of rocke.sim: binary64 arithmetic, flushing by
comparing magnitudes with 2^-126 in binary64, and numpy's / ml_dtypes' casts for rounding.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from rocke.ir import Builder, ScalarType, bf16, f16, f32, ptr
from rocke.sim import APPROX_ROUNDINGS, LaunchError, run

BF16 = np.dtype(ml_dtypes.bfloat16)
F16 = np.dtype(np.float16)
F32 = np.dtype(np.float32)
DTYPES = {"f16": F16, "bf16": BF16, "f32": F32}
TINY32 = 2.0**-126


def sim_unary(opname: str, ty: ScalarType, x: np.ndarray) -> np.ndarray:
    """out[i] = math.OP(x[i]) through the simulator; len(x) a multiple of 256."""
    b = Builder(f"sweep_{opname}", max_workgroup_size=256)
    src = b.param("x", ptr(ty, "global"), readonly=True)
    dst = b.param("o", ptr(ty, "global"))
    gid = b.add(b.mul(b.block_id_x(), b.block_dim_x()), b.thread_id_x())
    b.store(dst, gid, getattr(b, opname)(b.load(src, gid)))
    out = np.zeros_like(x)
    run(b.finish(), arch="gfx942", grid=x.size // 256, block=256, args=[x, out])
    return out


# ---------------------------------------------------------------------- the reference model
def _flush(x: np.ndarray) -> np.ndarray:
    """binary64 values holding f32 values: denormals to a zero of their sign."""
    return np.where(np.abs(x) < TINY32, np.copysign(0.0, x), x)


def ref_v_rcp_f32(x: np.ndarray) -> np.ndarray:
    """v_rcp_f32, correctly rounded: a quotient rounded from binary64 to f32 equals the direct rounding."""
    return _flush((1.0 / _flush(x.astype(np.float64))).astype(F32).astype(np.float64)).astype(F32)


def ref_v_sqrt_f32(x: np.ndarray) -> np.ndarray:
    """v_sqrt_f32 (no correction), correctly rounded, denormal input flushed."""
    return np.sqrt(_flush(x.astype(np.float64))).astype(F32)


def ref_rcp(x: np.ndarray) -> np.ndarray:
    if x.dtype == F16:
        return (1.0 / x.astype(np.float64)).astype(F16)  # v_rcp_f16 (numpy rounds binary64 to f16 once)
    if x.dtype == BF16:
        return ref_v_rcp_f32(x.astype(F32)).astype(BF16)  # fpext, v_rcp_f32, round to bf16
    return ref_v_rcp_f32(x)


def ref_rsqrt(x: np.ndarray) -> np.ndarray:
    if x.dtype == F16:
        root = np.sqrt(x.astype(np.float64)).astype(F16)  # v_sqrt_f16
        return (1.0 / root.astype(np.float64)).astype(F16)  # v_rcp_f16
    if x.dtype == BF16:
        root = ref_v_sqrt_f32(x.astype(F32)).astype(BF16)  # v_sqrt_f32, round to bf16
        return ref_v_rcp_f32(root.astype(F32)).astype(BF16)  # v_rcp_f32, round to bf16
    return ref_v_rcp_f32(ref_v_sqrt_f32(x))


def ref_exp2_log2(fn, x: np.ndarray) -> np.ndarray:
    wide = fn(x.astype(np.float64))
    if x.dtype == BF16:
        return wide.astype(F32).astype(BF16)  # computed in f32, then rounded to bf16
    return wide.astype(x.dtype)


REFERENCE = {
    "rcp": ref_rcp,
    "rsqrt": ref_rsqrt,
    "sqrt": lambda x: np.sqrt(x.astype(np.float64)).astype(F32).astype(x.dtype),
    "exp2": lambda x: ref_exp2_log2(np.exp2, x),
    "log2": lambda x: ref_exp2_log2(np.log2, x),
}


def mismatches(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Where got and want differ: bits, with any NaN equal to any NaN."""
    g, w = got.astype(np.float64), want.astype(np.float64)
    both_nan = np.isnan(g) & np.isnan(w)
    return ~both_nan & ((g != w) | (np.signbit(g) != np.signbit(w)))


def every_pattern(dtype: np.dtype) -> np.ndarray:
    return np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(dtype)


# ---------------------------------------------------------------------- tests
@pytest.mark.parametrize("opname", sorted(REFERENCE))
@pytest.mark.parametrize("ty", [f16, bf16], ids=str)
def test_every_f16_and_bf16_input_matches_the_instruction_model(ty: ScalarType, opname: str) -> None:
    x = every_pattern(DTYPES[ty.name])
    with np.errstate(all="ignore"):
        got = sim_unary(opname, ty, x)
        want = REFERENCE[opname](x)
        bad = mismatches(got, want)
    assert not bad.any(), (f"{opname} {ty}: {int(bad.sum())} of {x.size} inputs differ, first x = "
                           f"{x[bad][0]!r}: got {got[bad][0]!r}, want {want[bad][0]!r}")


@pytest.mark.parametrize("ty", [f16, bf16], ids=str)
def test_rsqrt_rounds_in_between_as_the_two_instructions_do(ty: ScalarType) -> None:
    """Negative control for the sweep: a single rounding of 1/sqrt(x) is not what the lowering
    computes, and the sweep tells the two apart (on a quarter of the positive normal inputs)."""
    dtype = DTYPES[ty.name]
    x = every_pattern(dtype)
    info = ml_dtypes.finfo(dtype)
    with np.errstate(all="ignore"):
        wide = x.astype(np.float64)
        positive_normal = np.isfinite(wide) & (wide >= float(info.tiny))
        got = sim_unary("rsqrt", ty, x)
        once = (1.0 / np.sqrt(wide)).astype(F32).astype(dtype) if dtype == BF16 else (1.0 / np.sqrt(wide)).astype(dtype)
        differ = mismatches(got, once) & positive_normal
    assert int(positive_normal.sum()) == {"f16": 30720, "bf16": 32512}[ty.name]
    assert int(differ.sum()) == {"f16": 8160, "bf16": 9017}[ty.name]


def test_rcp_and_rsqrt_flush_f32_denormals() -> None:
    """v_rcp_f32 / v_sqrt_f32 flush denormal inputs and results to zero: rcp(2^127) = 0, not
    2^-127; rcp(1e-40) and rsqrt(1e-40) = inf."""
    edge = np.array([2.0**127, -(2.0**127), 2.0**126, 1e-40, -1e-40, 2.0**-126, 0.0, -0.0, np.inf, -np.inf,
                     3.0e38, 4.0, 0.25] + [0.0] * 243, F32)
    with np.errstate(all="ignore"):
        rcp = sim_unary("rcp", f32, edge)
        rsq = sim_unary("rsqrt", f32, edge)
        rcp_bf = sim_unary("rcp", bf16, edge.astype(BF16))
    assert rcp[:13].tolist() == [0.0, -0.0, 2.0**-126, np.inf, -np.inf, 2.0**126, np.inf, -np.inf, 0.0, -0.0,
                                 0.0, 0.25, 4.0]
    assert np.signbit(rcp[1]) and not np.signbit(rcp[0])
    # -1e-40 flushes to -0, whose square root is -0: rsqrt(-1e-40) = -inf, as on the GPU
    assert rsq[3] == np.inf and rsq[4] == -np.inf and rsq[5] == 2.0**63 and rsq[11] == 0.5 and rsq[12] == 2.0
    assert rcp_bf[0] == 0.0 and rcp_bf[3] == np.inf
    with np.errstate(all="ignore"):
        assert not mismatches(rcp, ref_rcp(edge)).any() and not mismatches(rsq, ref_rsqrt(edge)).any()


def test_f32_rcp_and_rsqrt_match_the_instruction_model() -> None:
    rng = np.random.default_rng(15)
    x = rng.integers(0, 2**32, 1 << 14, dtype=np.uint64).astype(np.uint32).view(F32)
    x[:256] = (np.arange(256, dtype=np.uint32) + np.uint32(0x007FFF80)).view(F32)  # around 2^-126
    with np.errstate(all="ignore"):
        for opname in ("rcp", "rsqrt"):
            bad = mismatches(sim_unary(opname, f32, x), REFERENCE[opname](x))
            assert not bad.any(), (opname, x[bad][:4])


@pytest.mark.parametrize("ty", [f32, f16, bf16], ids=str)
def test_approx_rounding_takes_the_neighbours_of_the_exact_value(ty: ScalarType) -> None:
    """approx_rounding='up' / 'down': every approximate instruction lands on the neighbour above /
    below its exact value; the correctly rounded f32/bf16 sqrt does not move."""
    dtype = DTYPES[ty.name]
    x = np.linspace(0.3, 9.7, 512).astype(dtype)
    exact = {"exp2": np.exp2, "log2": np.log2, "rcp": lambda v: 1.0 / v}
    for opname, fn in exact.items():
        want = fn(x.astype(np.float64))
        got = {mode: sim_unary_mode(opname, ty, x, mode).astype(np.float64) for mode in APPROX_ROUNDINGS}
        assert np.all(got["down"] <= got["nearest"]) and np.all(got["nearest"] <= got["up"]), opname
        if ty != bf16:  # bf16 rounds the skewed f32 result to nearest: it rarely moves, and may cross
            assert np.any(got["up"] != got["down"]), opname
            assert np.all(got["down"] <= want) and np.all(got["up"] >= want), opname
            assert np.all((got["nearest"] == got["down"]) | (got["nearest"] == got["up"])), opname
            spacing = np.abs(np.nextafter(got["down"].astype(dtype), np.array(np.inf, dtype)).astype(np.float64)
                             - got["down"])
            assert np.all(got["up"] - got["down"] <= spacing), opname
    sqrt_up = sim_unary_mode("sqrt", ty, x, "up")
    sqrt_near = sim_unary_mode("sqrt", ty, x, "nearest")
    assert (ty == f16) == bool(np.any(sqrt_up != sqrt_near))
    with pytest.raises(LaunchError, match=r"approx_rounding must be one of nearest, up, down, got 'odd'"):
        sim_unary_mode("sqrt", ty, x, "odd")


def sim_unary_mode(opname: str, ty: ScalarType, x: np.ndarray, mode: str) -> np.ndarray:
    b = Builder(f"mode_{opname}", max_workgroup_size=256)
    src = b.param("x", ptr(ty, "global"), readonly=True)
    dst = b.param("o", ptr(ty, "global"))
    gid = b.add(b.mul(b.block_id_x(), b.block_dim_x()), b.thread_id_x())
    b.store(dst, gid, getattr(b, opname)(b.load(src, gid)))
    out = np.zeros_like(x)
    run(b.finish(), arch="gfx1100", grid=x.size // 256, block=256, args=[x, out], approx_rounding=mode)
    return out


# ---------------------------------------------------------------------- NVIDIA (sm_90)
def sim_unary_on(arch: str, opname: str, ty: ScalarType, x: np.ndarray) -> np.ndarray:
    """sim_unary on another arch."""
    b = Builder(f"sweep_{opname}", max_workgroup_size=256)
    src = b.param("x", ptr(ty, "global"), readonly=True)
    dst = b.param("o", ptr(ty, "global"))
    gid = b.add(b.mul(b.block_id_x(), b.block_dim_x()), b.thread_id_x())
    b.store(dst, gid, getattr(b, opname)(b.load(src, gid)))
    out = np.zeros_like(x)
    run(b.finish(), arch=arch, grid=x.size // 256, block=256, args=[x, out])
    return out


def _nv_round(exact: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """The f32 result of a binary64 value, rounded to dtype: numpy's casts, nearest even each."""
    return exact.astype(F32).astype(dtype)


# What the nvptx lowering computes (rocke/lower/nvptx/ops_math.py), written from the PTX ISA: the
# value widened to f32, the f32 instruction (ex2.approx / lg2.approx modelled rounded to nearest,
# sqrt.rn and rcp.rn correctly rounded with denormals kept), then fptrunc to the op's type.
NVIDIA_REFERENCE = {
    "exp2": lambda x: _nv_round(np.exp2(x.astype(F32).astype(np.float64)), x.dtype),
    "log2": lambda x: _nv_round(np.log2(x.astype(F32).astype(np.float64)), x.dtype),
    "sqrt": lambda x: _nv_round(np.sqrt(x.astype(F32).astype(np.float64)), x.dtype),
    "rcp": lambda x: _nv_round(1.0 / x.astype(F32).astype(np.float64), x.dtype),
    "rsqrt": lambda x: _nv_round(1.0 / np.sqrt(x.astype(F32).astype(np.float64)).astype(F32).astype(np.float64),
                                 x.dtype),
}


@pytest.mark.parametrize("opname", sorted(NVIDIA_REFERENCE))
@pytest.mark.parametrize("ty", [f16, bf16], ids=str)
def test_every_f16_and_bf16_input_matches_the_nvidia_model(ty: ScalarType, opname: str) -> None:
    x = every_pattern(DTYPES[ty.name])
    with np.errstate(all="ignore"):
        got = sim_unary_on("sm_90", opname, ty, x)
        want = NVIDIA_REFERENCE[opname](x)
        bad = mismatches(got, want)
    assert not bad.any(), (f"{opname} {ty} on sm_90: {int(bad.sum())} of {x.size} inputs differ, first x = "
                           f"{x[bad][0]!r}: got {got[bad][0]!r}, want {want[bad][0]!r}")


def test_the_nvidia_model_is_not_the_amd_one() -> None:
    """Negative control for the NVIDIA sweep: f16 rsqrt rounds its root to f32 on NVIDIA and to f16
    on AMD (v_sqrt_f16 then v_rcp_f16), and rcp of an f32 denormal is kept on NVIDIA (rcp.rn) but
    flushed on AMD (v_rcp_f32): the sweep tells the models apart."""
    x = every_pattern(F16)
    with np.errstate(all="ignore"):
        nvidia = sim_unary_on("sm_90", "rsqrt", f16, x)
        amd = sim_unary_on("gfx942", "rsqrt", f16, x)
    assert mismatches(nvidia, amd).sum() > 100
    tiny = np.full(256, 2.0**-127, F32)  # an f32 denormal whose reciprocal, 2^127, is finite
    assert np.isinf(sim_unary_on("gfx942", "rcp", f32, tiny)).all()
    assert (sim_unary_on("sm_90", "rcp", f32, tiny) == np.float32(2.0**127)).all()
