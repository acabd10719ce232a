"""img2col specs: the exact text of every refusal (spec rules and arch rules); the C++ twin must
reproduce these strings byte for byte."""

from __future__ import annotations

from rocke.gates import conformance as kit
from rocke_library.kernels.conv.img2col import Img2colSpec
from rocke_library.kernels.conv.img2col.family import FAMILY

BASE = ("block=256 dil_h=1 dil_w=1 dtype=f16 filter_x=3 filter_y=3 pad_h=1 pad_w=1 stride_h=1 stride_w=1 "
        "vec=8")


SPEC_REFUSALS = [
    ({"dtype": "f64"}, "img2col: dtype=f64: must be one of f16, bf16, f32"),
    ({"vec": 3}, "img2col: vec=3: must be 1, 2, 4 or 8"),
    ({"dtype": "f32", "vec": 8}, "img2col: vec=8: one f32 access holds at most 4 elements (16 bytes)"),
    ({"block": 48}, "img2col: block=48: must be a multiple of 32 in 32..1024"),
    ({"block": 0}, "img2col: block=0: must be a multiple of 32 in 32..1024"),
    ({"block": 1056}, "img2col: block=1056: must be a multiple of 32 in 32..1024"),
    ({"filter_y": 0}, "img2col: filter_y=0: must be in 1..16"),
    ({"filter_x": 17}, "img2col: filter_x=17: must be in 1..16"),
    ({"filter_x": 9, "filter_y": 9}, "img2col: filter_x=9: filter_y * filter_x = 81 taps exceed the limit of 64"),
    ({"stride_h": 0}, "img2col: stride_h=0: must be in 1..8"),
    ({"stride_w": 9}, "img2col: stride_w=9: must be in 1..8"),
    ({"dil_h": 0}, "img2col: dil_h=0: must be in 1..8"),
    ({"dil_w": 9}, "img2col: dil_w=9: must be in 1..8"),
    ({"pad_h": 3}, "img2col: pad_h=3: must be in 0..2 (at most dil_h * (filter_y - 1), so every output sees "
                   "the input)"),
    ({"pad_w": -1}, "img2col: pad_w=-1: must be in 0..2 (at most dil_w * (filter_x - 1), so every output sees "
                    "the input)"),
    ({"filter_x": 1}, "img2col: pad_w=1: must be in 0..0 (at most dil_w * (filter_x - 1), so every output sees "
                      "the input)"),
]


ARCH_REFUSALS = [
    ({"block": 96}, "gfx942", "img2col: block=96: must be a multiple of the wave size 64 of gfx942"),
    ({"block": 160}, "gfx950", "img2col: block=160: must be a multiple of the wave size 64 of gfx950"),
]


class TestImg2colSpecs(kit.SpecConformance):
    family, base = FAMILY, BASE
    spec_refusals, arch_refusals = SPEC_REFUSALS, ARCH_REFUSALS


def test_rules_run_in_order_and_report_the_first_failure() -> None:
    kit.check_spec_refusal(Img2colSpec, kit.with_changes(BASE, dtype="f64", vec=3, block=7),
                           "img2col: dtype=f64: must be one of f16, bf16, f32")
