"""Family specs: canonical kv round trips, kernel names, and the exact text of every refusal
(spec rules and arch rules); the C++ twins must reproduce these strings byte for byte."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rocke.arch import MMA_OPS, get_arch
from rocke.families.elementwise import OPS, ElementwiseSpec
from rocke.families.elementwise import build as build_elementwise
from rocke.families.gemm import GemmSpec
from rocke.families.gemm import build as build_gemm
from rocke.families.spec import SpecError

EW_BASE = "block=256 dtype=f16 op=add vec=8"
GEMM_BASE = ("a_dtype=f16 a_layout=row b_dtype=f16 b_layout=row bias=0 bk=32 bm=64 bn=64 c_dtype=f32 double_buffer=0 "
             "lds_pad=0 op_id=mfma_f32_32x32x8_f16 wm=2 wn=2")


def _with(base: str, **changes: object) -> str:
    pairs = dict(pair.split("=", 1) for pair in base.split(" "))
    pairs.update({key: str(value) for key, value in changes.items()})
    return " ".join(f"{key}={pairs[key]}" for key in sorted(pairs))


@st.composite
def elementwise_specs(draw: st.DrawFn) -> ElementwiseSpec:
    dtype = draw(st.sampled_from(["f16", "bf16", "f32"]))
    vec = draw(st.sampled_from([1, 2, 4] if dtype == "f32" else [1, 2, 4, 8]))
    return ElementwiseSpec(block=32 * draw(st.integers(1, 32)), dtype=dtype, op=draw(st.sampled_from(OPS)), vec=vec)


@st.composite
def gemm_specs(draw: st.DrawFn) -> GemmSpec:
    op = draw(st.sampled_from(MMA_OPS))
    wm, wn = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    return GemmSpec(
        a_dtype=op.a_dtype, a_layout=draw(st.sampled_from(["row", "col"])), b_dtype=op.b_dtype,
        b_layout=draw(st.sampled_from(["row", "col"])), bias=draw(st.booleans()), bk=op.k * draw(st.integers(1, 4)),
        bm=wm * op.m * draw(st.integers(1, 2)), bn=wn * op.n * draw(st.integers(1, 2)),
        c_dtype=draw(st.sampled_from(["f16", "bf16", "f32"])), double_buffer=draw(st.booleans()),
        lds_pad=draw(st.integers(0, 64)), op_id=op.id, wm=wm, wn=wn,
    )


@given(st.one_of(elementwise_specs(), gemm_specs()))
@settings(max_examples=200, deadline=None)
def test_canonical_round_trip(spec: ElementwiseSpec | GemmSpec) -> None:
    kv = spec.to_kv()
    again = type(spec).from_kv(kv)
    assert again == spec and again.to_kv() == kv
    keys = [pair.split("=")[0] for pair in kv.split(" ")]
    assert keys == sorted(keys)
    assert re.fullmatch(rf"{spec.FAMILY}_[0-9a-f]{{10}}", spec.kernel_name())


def test_kv_texts() -> None:
    assert ElementwiseSpec(block=128, dtype="bf16", op="silu", vec=4).to_kv() == "block=128 dtype=bf16 op=silu vec=4"
    spec = GemmSpec.from_kv(GEMM_BASE)
    assert spec.to_kv() == GEMM_BASE
    assert spec.threads == 256 and spec.atom().m == 32
    assert ElementwiseSpec.from_kv(EW_BASE).inputs == ("x", "y")
    assert ElementwiseSpec.from_kv(_with(EW_BASE, op="gelu_tanh")).inputs == ("x",)


def test_kernel_names_differ_between_specs_and_families() -> None:
    names = {ElementwiseSpec.from_kv(_with(EW_BASE, vec=v)).kernel_name() for v in (1, 2, 4, 8)}
    names |= {GemmSpec.from_kv(_with(GEMM_BASE, lds_pad=p)).kernel_name() for p in range(4)}
    assert len(names) == 8


EW_SPEC_REFUSALS = [
    ({"op": "tanh"}, "elementwise: op=tanh: must be one of add, sub, mul, max, relu, silu, gelu_tanh"),
    ({"dtype": "f64"}, "elementwise: dtype=f64: must be one of f16, bf16, f32"),
    ({"vec": 3}, "elementwise: vec=3: must be 1, 2, 4 or 8"),
    ({"vec": 8, "dtype": "f32"}, "elementwise: vec=8: one f32 access holds at most 4 elements (16 bytes)"),
    ({"block": 48}, "elementwise: block=48: must be a multiple of 32 in 32..1024"),
    ({"block": 1056}, "elementwise: block=1056: must be a multiple of 32 in 32..1024"),
    ({"block": 0}, "elementwise: block=0: must be a multiple of 32 in 32..1024"),
    ({"op": "tanh", "vec": 3}, "elementwise: op=tanh: must be one of add, sub, mul, max, relu, silu, gelu_tanh"),
]

M32 = "mfma_f32_32x32x8_f16"
GEMM_SPEC_REFUSALS = [
    ({"a_dtype": "f32"}, "gemm: a_dtype=f32: must be one of f16, bf16"),
    ({"b_dtype": "bf16"}, "gemm: b_dtype=bf16: must equal a_dtype=f16 (one MMA input type)"),
    ({"c_dtype": "i32"}, "gemm: c_dtype=i32: must be one of f16, bf16, f32"),
    ({"a_layout": "diag"}, "gemm: a_layout=diag: must be one of row, col"),
    ({"b_layout": "t"}, "gemm: b_layout=t: must be one of row, col"),
    ({"op_id": "mfma_f32_64x64x4_f16"}, "gemm: op_id=mfma_f32_64x64x4_f16: is not an op of the MMA catalog"),
    ({"op_id": "mfma_f32_32x32x8_bf16"}, "gemm: op_id=mfma_f32_32x32x8_bf16: multiplies bf16 inputs, not a_dtype=f16"),
    ({"wm": 0}, "gemm: wm=0: must be in 1..32"),
    ({"wn": 33}, "gemm: wn=33: must be in 1..32"),
    ({"bm": 1024}, "gemm: bm=1024: must be in 1..512"),
    ({"bn": 0}, "gemm: bn=0: must be in 1..512"),
    ({"bk": 512}, "gemm: bk=512: must be in 1..256"),
    ({"bm": 48}, f"gemm: bm=48: must be a multiple of wm * atom m = 2 * 32 ({M32})"),
    ({"bn": 96}, f"gemm: bn=96: must be a multiple of wn * atom n = 2 * 32 ({M32})"),
    ({"bk": 12}, f"gemm: bk=12: must be a multiple of atom k = 8 ({M32})"),
    ({"lds_pad": 65}, "gemm: lds_pad=65: must be in 0..64"),
    ({"lds_pad": -1}, "gemm: lds_pad=-1: must be in 0..64"),
]


@pytest.mark.parametrize(("changes", "message"), EW_SPEC_REFUSALS)
def test_elementwise_spec_refusals(changes: dict, message: str) -> None:
    with pytest.raises(SpecError) as info:
        ElementwiseSpec.from_kv(_with(EW_BASE, **changes))
    assert str(info.value) == message


@pytest.mark.parametrize(("changes", "message"), GEMM_SPEC_REFUSALS)
def test_gemm_spec_refusals(changes: dict, message: str) -> None:
    with pytest.raises(SpecError) as info:
        GemmSpec.from_kv(_with(GEMM_BASE, **changes))
    assert str(info.value) == message


EW_ARCH_REFUSALS = [
    ({"block": 96}, "gfx942", "elementwise: block=96: must be a multiple of the wave size 64 of gfx942"),
    ({"block": 160}, "gfx950", "elementwise: block=160: must be a multiple of the wave size 64 of gfx950"),
]

GEMM_ARCH_REFUSALS = [
    ({}, "gfx1100", f"gemm: op_id={M32}: is not available on gfx1100 (it runs on gfx942, gfx950)"),
    ({"op_id": "mfma_f32_16x16x32_f16", "bm": 32, "bn": 32}, "gfx942",
     "gemm: op_id=mfma_f32_16x16x32_f16: is not available on gfx942 (it runs on gfx950)"),
    ({"op_id": "wmma_f32_16x16x16_f16_gfx12", "bk": 16}, "gfx1100",
     "gemm: op_id=wmma_f32_16x16x16_f16_gfx12: is not available on gfx1100 (it runs on gfx1201)"),
    ({"wm": 4, "wn": 8, "bm": 128, "bn": 256}, "gfx942",
     "gemm: wm=4: wm * wn = 32 waves of 64 lanes exceed the 1024-thread workgroup limit of gfx942"),
    ({"op_id": "mfma_f32_16x16x16_f16", "wm": 1, "wn": 8, "bm": 16, "bn": 128, "bk": 16}, "gfx942",
     "gemm: bm=16: the A tile of 16 x 16 elements does not split evenly over 512 threads"),
    ({"op_id": "mfma_f32_16x16x16_f16", "wm": 8, "wn": 1, "bm": 128, "bn": 16, "bk": 16}, "gfx942",
     "gemm: bn=16: the B tile of 16 x 16 elements does not split evenly over 512 threads"),
    ({"bm": 512, "bk": 128, "lds_pad": 8}, "gfx950",
     "gemm: bm=512: the A LDS tile holds 69632 elements, over the allocation limit of 65536"),
    ({"bn": 512, "bk": 128, "lds_pad": 8}, "gfx950",
     "gemm: bn=512: the B LDS tile holds 69632 elements, over the allocation limit of 65536"),
    ({"bm": 128, "bn": 128, "bk": 128, "lds_pad": 8, "double_buffer": 1}, "gfx942",
     "gemm: bk=128: the LDS tiles need 139264 bytes (2 stage(s) of (128 + 128) x (128 + 8) f16), over the "
     "65536 bytes of gfx942"),
]


@pytest.mark.parametrize(("changes", "arch", "message"), EW_ARCH_REFUSALS)
def test_elementwise_arch_refusals(changes: dict, arch: str, message: str) -> None:
    spec = ElementwiseSpec.from_kv(_with(EW_BASE, **changes))
    with pytest.raises(SpecError) as info:
        build_elementwise(spec, arch)
    assert str(info.value) == message
    build_elementwise(spec, "gfx1100")  # the same spec is fine in wave32


@pytest.mark.parametrize(("changes", "arch", "message"), GEMM_ARCH_REFUSALS)
def test_gemm_arch_refusals(changes: dict, arch: str, message: str) -> None:
    spec = GemmSpec.from_kv(_with(GEMM_BASE, **changes))
    with pytest.raises(SpecError) as info:
        build_gemm(spec, arch)
    assert str(info.value) == message


def test_the_lds_refusal_depends_on_the_arch() -> None:
    spec = GemmSpec.from_kv(_with(GEMM_BASE, bm=128, bn=128, bk=128, lds_pad=8, double_buffer=1))
    assert get_arch("gfx950").lds_bytes >= 139264
    build_gemm(spec, "gfx950")
