"""conv_igemm_fwd specs: the exact text of every refusal (spec rules and arch rules); the C++ twin
must reproduce these strings byte for byte."""

from __future__ import annotations

from rocke.gates import conformance as kit
from rocke_library.kernels.conv.conv_igemm_fwd import ConvIgemmFwdSpec
from rocke_library.kernels.conv.conv_igemm_fwd.family import FAMILY

BASE = ("bias=1 bk=32 bm=64 bn=64 dil_h=1 dil_w=1 double_buffer=1 dtype=f16 filter_x=3 filter_y=3 lds_pad=8 "
        "op_id=mfma_f32_32x32x8_f16 pad_h=1 pad_w=1 relu=1 stride_h=1 stride_w=1 vec=8 wm=2 wn=2")

SPEC_REFUSALS = [
    ({"dtype": "f32"}, "conv_igemm_fwd: dtype=f32: must be one of f16, bf16"),
    ({"vec": 3}, "conv_igemm_fwd: vec=3: must be 1, 2, 4 or 8"),
    ({"vec": 16}, "conv_igemm_fwd: vec=16: must be 1, 2, 4 or 8"),
    ({"op_id": "mma_x"}, "conv_igemm_fwd: op_id=mma_x: is not an op of the MMA catalog"),
    ({"dtype": "bf16"}, "conv_igemm_fwd: op_id=mfma_f32_32x32x8_f16: multiplies f16 inputs, not dtype=bf16"),
    ({"wm": 0}, "conv_igemm_fwd: wm=0: must be in 1..32"),
    ({"bn": 1024}, "conv_igemm_fwd: bn=1024: must be in 1..512"),
    ({"bk": 512}, "conv_igemm_fwd: bk=512: must be in 1..256"),
    ({"bm": 48}, "conv_igemm_fwd: bm=48: must be a multiple of wm * atom m = 2 * 32 (mfma_f32_32x32x8_f16)"),
    ({"bn": 32}, "conv_igemm_fwd: bn=32: must be a multiple of wn * atom n = 2 * 32 (mfma_f32_32x32x8_f16)"),
    ({"bk": 20}, "conv_igemm_fwd: bk=20: must be a multiple of atom k = 8 (mfma_f32_32x32x8_f16)"),
    ({"lds_pad": 65}, "conv_igemm_fwd: lds_pad=65: must be in 0..64"),
    ({"filter_y": 17}, "conv_igemm_fwd: filter_y=17: must be in 1..16"),
    ({"filter_x": 13, "filter_y": 5}, "conv_igemm_fwd: filter_x=13: filter_y * filter_x = 65 taps exceed the "
                                      "limit of 64"),
    ({"stride_w": 9}, "conv_igemm_fwd: stride_w=9: must be in 1..8"),
    ({"dil_h": 0}, "conv_igemm_fwd: dil_h=0: must be in 1..8"),
    ({"pad_h": 3}, "conv_igemm_fwd: pad_h=3: must be in 0..2 (at most dil_h * (filter_y - 1), so every output sees "
                   "the input)"),
]

ARCH_REFUSALS = [
    ({}, "gfx1100", "conv_igemm_fwd: op_id=mfma_f32_32x32x8_f16: is not available on gfx1100 (it runs on gfx942, "
     "gfx950)"),
    ({"op_id": "wmma_f32_16x16x16_f16_gfx12"}, "gfx942",
     "conv_igemm_fwd: op_id=wmma_f32_16x16x16_f16_gfx12: is not available on gfx942 (it runs on gfx1201)"),
    ({"op_id": "mfma_f32_16x16x16_f16", "bm": 16, "bn": 128, "wm": 1, "wn": 8, "bk": 16, "vec": 1}, "gfx942",
     "conv_igemm_fwd: bm=16: the A tile of 16 x 16 elements does not split evenly over 512 threads"),
    ({"bm": 512, "bn": 256, "bk": 64, "wm": 4, "wn": 4}, "gfx942",
     "conv_igemm_fwd: bm=512: the A LDS tile holds 73728 elements, over the allocation limit of 65536"),
    ({"bm": 256, "bn": 256, "bk": 64, "wm": 4, "wn": 4}, "gfx942",
     "conv_igemm_fwd: bk=64: the LDS tiles need 147456 bytes (2 stage(s) of (256 + 256) x (64 + 8) f16), over the "
     "65536 bytes of gfx942"),
    ({"op_id": "wmma_f32_16x16x16_f16_gfx12", "wm": 8, "wn": 8, "bm": 128, "bn": 128}, "gfx1201",
     "conv_igemm_fwd: wm=8: wm * wn = 64 waves of 32 lanes exceed the 1024-thread workgroup limit of gfx1201"),
]


class TestConvIgemmFwdSpecs(kit.SpecConformance):
    family, base = FAMILY, BASE
    spec_refusals, arch_refusals = SPEC_REFUSALS, ARCH_REFUSALS
    fine_on = None


def test_rules_run_in_order_and_report_the_first_failure() -> None:
    kit.check_spec_refusal(ConvIgemmFwdSpec, kit.with_changes(BASE, dtype="f32", bm=7, stride_h=0),
                           "conv_igemm_fwd: dtype=f32: must be one of f16, bf16")


def test_the_fast_path_is_the_unpadded_stride_one_1x1_window() -> None:
    one = dict(filter_x=1, filter_y=1, pad_h=0, pad_w=0)
    assert ConvIgemmFwdSpec.from_kv(kit.with_changes(BASE, **one)).pointwise
    assert ConvIgemmFwdSpec.from_kv(kit.with_changes(BASE, **one, dil_h=2)).pointwise  # a 1x1 tap has no span
    assert not ConvIgemmFwdSpec.from_kv(kit.with_changes(BASE, **one, stride_w=2)).pointwise
    assert not ConvIgemmFwdSpec.from_kv(BASE).pointwise
