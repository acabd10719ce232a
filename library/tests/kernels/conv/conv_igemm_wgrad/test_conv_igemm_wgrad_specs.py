"""conv_igemm_wgrad specs: the exact text of every refusal (spec rules and the main loop plan's arch
rules); the C++ twin must reproduce these strings byte for byte."""

from __future__ import annotations

from rocke.gates import conformance as kit
from rocke_library.kernels.conv.conv_igemm_wgrad.family import FAMILY
from rocke_library.kernels.conv.conv_igemm_wgrad.spec import ConvIgemmWgradSpec

BASE = ("bk=16 bm=32 bn=32 convert=0 dil_h=1 dil_w=1 double_buffer=1 dtype=bf16 filter_x=3 filter_y=3 lds_pad=8 "
        "op_id=wmma_f32_16x16x16_bf16_gfx12 pad_h=1 pad_w=1 split_k=4 stride_h=2 stride_w=2 vec=8 wm=1 wn=2")

F = "conv_igemm_wgrad"
SPEC_REFUSALS = [
    ({"dtype": "f8"}, f"{F}: dtype=f8: must be one of f16, bf16"),
    ({"dtype": "f16"}, f"{F}: op_id=wmma_f32_16x16x16_bf16_gfx12: multiplies bf16 inputs, not dtype=f16"),
    ({"bn": 48}, f"{F}: bn=48: must be a multiple of wn * atom n = 2 * 16 (wmma_f32_16x16x16_bf16_gfx12)"),
    ({"bk": 24}, f"{F}: bk=24: must be a multiple of atom k = 16 (wmma_f32_16x16x16_bf16_gfx12)"),
    ({"vec": 16}, f"{F}: vec=16: must be 1, 2, 4 or 8"),
    ({"pad_h": 3}, f"{F}: pad_h=3: must be in 0..2 (at most dil_h * (filter_y - 1), so every output sees the input)"),
    ({"split_k": 0}, f"{F}: split_k=0: must be in 1..64"),
    ({"split_k": 65}, f"{F}: split_k=65: must be in 1..64"),
    ({"split_k": 1, "convert": True},
     f"{F}: convert=1: needs split_k > 1 (with split_k = 1 the main kernel stores dw itself)"),
]

ARCH_REFUSALS = [
    ({}, "gfx1100", f"{F}: op_id=wmma_f32_16x16x16_bf16_gfx12: is not available on gfx1100 (it runs on gfx1201)"),
    ({"convert": True}, "gfx942",
     f"{F}: op_id=wmma_f32_16x16x16_bf16_gfx12: is not available on gfx942 (it runs on gfx1201)"),
    ({"bm": 256, "bn": 256, "bk": 128}, "gfx1201",
     f"{F}: bm=256: the A LDS tile holds 69632 elements, over the allocation limit of 65536"),
    ({"bm": 128, "bn": 128, "bk": 96, "lds_pad": 0}, "gfx1201",
     f"{F}: bk=96: the LDS tiles need 98304 bytes (2 stage(s) of (128 + 128) x (96 + 0) bf16), over the 65536 "
     "bytes of gfx1201"),
]


class TestConvIgemmWgradSpecs(kit.SpecConformance):
    family, base, fine_on = FAMILY, BASE, None
    spec_refusals, arch_refusals = SPEC_REFUSALS, ARCH_REFUSALS


def test_round_trip_and_derived_sizes() -> None:
    spec = ConvIgemmWgradSpec.from_kv(BASE)
    kit.check_round_trip(spec)
    assert (spec.threads, spec.taps, spec.atomic) == (64, 9, True)
    assert not ConvIgemmWgradSpec.from_kv(kit.with_changes(BASE, split_k=1)).atomic
