"""conv_igemm_dgrad specs: the exact text of every refusal (spec rules and the main loop plan's arch
rules); the C++ twin must reproduce these strings byte for byte."""

from __future__ import annotations

from rocke.gates import conformance as kit
from rocke_library.kernels.conv.conv_igemm_dgrad.family import FAMILY
from rocke_library.kernels.conv.conv_igemm_dgrad.spec import ConvIgemmDgradSpec

BASE = ("bk=32 bm=64 bn=64 dil_h=1 dil_w=1 double_buffer=1 dtype=f16 filter_x=3 filter_y=3 lds_pad=8 "
        "op_id=mfma_f32_32x32x8_f16 pad_h=1 pad_w=1 stride_h=1 stride_w=1 vec=8 wm=2 wn=2")

F = "conv_igemm_dgrad"
SPEC_REFUSALS = [
    ({"dtype": "f32"}, f"{F}: dtype=f32: must be one of f16, bf16"),
    ({"vec": 3, "op_id": "bogus"}, f"{F}: vec=3: must be 1, 2, 4 or 8"),
    ({"op_id": "mfma_f32_64x64x4_f16"}, f"{F}: op_id=mfma_f32_64x64x4_f16: is not an op of the MMA catalog"),
    ({"op_id": "mfma_f32_32x32x8_bf16"}, f"{F}: op_id=mfma_f32_32x32x8_bf16: multiplies bf16 inputs, not dtype=f16"),
    ({"wm": 0}, f"{F}: wm=0: must be in 1..32"),
    ({"wn": 33}, f"{F}: wn=33: must be in 1..32"),
    ({"bm": 1024}, f"{F}: bm=1024: must be in 1..512"),
    ({"bk": 512}, f"{F}: bk=512: must be in 1..256"),
    ({"bm": 96}, f"{F}: bm=96: must be a multiple of wm * atom m = 2 * 32 (mfma_f32_32x32x8_f16)"),
    ({"bn": 32}, f"{F}: bn=32: must be a multiple of wn * atom n = 2 * 32 (mfma_f32_32x32x8_f16)"),
    ({"bk": 20}, f"{F}: bk=20: must be a multiple of atom k = 8 (mfma_f32_32x32x8_f16)"),
    ({"lds_pad": 65}, f"{F}: lds_pad=65: must be in 0..64"),
    ({"filter_y": 17}, f"{F}: filter_y=17: must be in 1..16"),
    ({"filter_x": 9, "filter_y": 9}, f"{F}: filter_x=9: filter_y * filter_x = 81 taps exceed the limit of 64"),
    ({"stride_w": 9}, f"{F}: stride_w=9: must be in 1..8"),
    ({"dil_h": 0}, f"{F}: dil_h=0: must be in 1..8"),
    ({"pad_w": 3}, f"{F}: pad_w=3: must be in 0..2 (at most dil_w * (filter_x - 1), so every output sees the input)"),
]

ARCH_REFUSALS = [
    ({}, "gfx1100", f"{F}: op_id=mfma_f32_32x32x8_f16: is not available on gfx1100 (it runs on gfx942, gfx950)"),
    ({"wm": 8, "wn": 4, "bm": 256, "bn": 128}, "gfx950",
     f"{F}: wm=8: wm * wn = 32 waves of 64 lanes exceed the 1024-thread workgroup limit of gfx950"),
    ({"op_id": "mfma_f32_16x16x16_f16", "bm": 32, "bn": 128, "bk": 16, "wn": 8}, "gfx942",
     f"{F}: bm=32: the A tile of 32 x 16 elements does not split evenly over 1024 threads"),
    ({"bm": 128, "bn": 128, "bk": 128, "lds_pad": 0}, "gfx942",
     f"{F}: bk=128: the LDS tiles need 131072 bytes (2 stage(s) of (128 + 128) x (128 + 0) f16), over the 65536 "
     "bytes of gfx942"),
]


class TestConvIgemmDgradSpecs(kit.SpecConformance):
    family, base, fine_on = FAMILY, BASE, None
    spec_refusals, arch_refusals = SPEC_REFUSALS, ARCH_REFUSALS


def test_rules_run_in_order_and_report_the_first_failure() -> None:
    kit.check_spec_refusal(ConvIgemmDgradSpec, kit.with_changes(BASE, lds_pad=99, bk=20, stride_h=0),
                           f"{F}: bk=20: must be a multiple of atom k = 8 (mfma_f32_32x32x8_f16)")


def test_round_trip_and_derived_sizes() -> None:
    spec = ConvIgemmDgradSpec.from_kv(BASE)
    kit.check_round_trip(spec)
    assert (spec.threads, spec.taps) == (256, 9)
