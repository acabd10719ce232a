"""gemm specs: canonical kv round trips, kernel names, and the exact text of every refusal (spec
rules and arch rules); the C++ twin must reproduce these strings byte for byte."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rocke.arch import MMA_OPS, get_arch
from rocke.families.gemm import GemmSpec
from rocke.families.gemm import build as build_gemm
from rocke.families.gemm.family import FAMILY
from rocke.gates import conformance as kit

BASE = ("a_dtype=f16 a_layout=row b_dtype=f16 b_layout=row bias=0 bk=32 bm=64 bn=64 c_dtype=f32 double_buffer=0 "
        "lds_pad=0 op_id=mfma_f32_32x32x8_f16 wm=2 wn=2")


@st.composite
def specs(draw: st.DrawFn) -> GemmSpec:
    op = draw(st.sampled_from(MMA_OPS))
    wm, wn = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    return GemmSpec(
        a_dtype=op.a_dtype, a_layout=draw(st.sampled_from(["row", "col"])), b_dtype=op.b_dtype,
        b_layout=draw(st.sampled_from(["row", "col"])), bias=draw(st.booleans()), bk=op.k * draw(st.integers(1, 4)),
        bm=wm * op.m * draw(st.integers(1, 2)), bn=wn * op.n * draw(st.integers(1, 2)),
        c_dtype=draw(st.sampled_from(["f16", "bf16", "f32"])), double_buffer=draw(st.booleans()),
        lds_pad=draw(st.integers(0, 64)), op_id=op.id, wm=wm, wn=wn,
    )


@given(specs())
@settings(max_examples=100, deadline=None)
def test_canonical_round_trip(spec: GemmSpec) -> None:
    kit.check_round_trip(spec)


def test_kv_texts() -> None:
    spec = GemmSpec.from_kv(BASE)
    assert spec.to_kv() == BASE
    assert spec.threads == 256 and spec.atom().m == 32


def test_kernel_names_differ_between_specs() -> None:
    names = {GemmSpec.from_kv(kit.with_changes(BASE, lds_pad=p)).kernel_name() for p in range(4)}
    assert len(names) == 4


M32 = "mfma_f32_32x32x8_f16"
SPEC_REFUSALS = [
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

ARCH_REFUSALS = [
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


class TestGemmSpecs(kit.SpecConformance):
    family, base = FAMILY, BASE
    spec_refusals, arch_refusals = SPEC_REFUSALS, ARCH_REFUSALS
    fine_on = None  # the arch rules here depend on the op, not on the wave size


def test_the_lds_refusal_depends_on_the_arch() -> None:
    spec = GemmSpec.from_kv(kit.with_changes(BASE, bm=128, bn=128, bk=128, lds_pad=8, double_buffer=1))
    assert get_arch("gfx950").lds_bytes >= 139264
    build_gemm(spec, "gfx950")
