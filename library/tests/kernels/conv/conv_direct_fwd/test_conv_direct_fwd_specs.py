"""conv_direct_fwd specs: the exact text of every refusal (spec rules and arch rules); the C++ twin
must reproduce these strings byte for byte."""

from __future__ import annotations

from rocke.gates import conformance as kit
from rocke_library.kernels.conv.conv_direct_fwd import ConvDirectFwdSpec
from rocke_library.kernels.conv.conv_direct_fwd.family import FAMILY

BASE = ("bias=1 depthwise=0 dil_h=1 dil_w=1 dtype=f16 filter_x=3 filter_y=3 pad_h=1 pad_w=1 relu=1 stride_h=1 "
        "stride_w=1 thread_k=4 thread_p=4 tile_k=64 tile_p=64 vec=8")


SPEC_REFUSALS = [
    ({"dtype": "f8"}, "conv_direct_fwd: dtype=f8: must be one of f16, bf16, f32"),
    ({"vec": 16}, "conv_direct_fwd: vec=16: must be 1, 2, 4 or 8"),
    ({"dtype": "f32"}, "conv_direct_fwd: vec=8: one f32 access holds at most 4 elements (16 bytes)"),
    ({"thread_k": 3}, "conv_direct_fwd: thread_k=3: must be 1, 2, 4 or 8"),
    ({"thread_p": 0}, "conv_direct_fwd: thread_p=0: must be in 1..16"),
    ({"thread_p": 17}, "conv_direct_fwd: thread_p=17: must be in 1..16"),
    ({"thread_p": 16, "thread_k": 8},
     "conv_direct_fwd: thread_p=16: thread_p * thread_k = 128 accumulators exceed the limit of 64"),
    ({"depthwise": True, "thread_k": 2},
     "conv_direct_fwd: vec=8: must divide thread_k=2 (depthwise vectors run along the channels)"),
    ({"tile_k": 30}, "conv_direct_fwd: tile_k=30: must be a multiple of thread_k=4 in 4..256"),
    ({"tile_k": 0}, "conv_direct_fwd: tile_k=0: must be a multiple of thread_k=4 in 4..256"),
    ({"tile_k": 260}, "conv_direct_fwd: tile_k=260: must be a multiple of thread_k=4 in 4..256"),
    ({"tile_p": 66}, "conv_direct_fwd: tile_p=66: must be a multiple of thread_p=4 in 4..1024"),
    ({"tile_p": 2048}, "conv_direct_fwd: tile_p=2048: must be a multiple of thread_p=4 in 4..1024"),
    ({"tile_p": 4, "tile_k": 4}, "conv_direct_fwd: tile_p=4: (tile_p / thread_p) * (tile_k / thread_k) = 1 "
                                 "threads; must be a multiple of 32 in 32..1024"),
    ({"tile_p": 72, "tile_k": 16}, "conv_direct_fwd: tile_p=72: (tile_p / thread_p) * (tile_k / thread_k) = 72 "
                                   "threads; must be a multiple of 32 in 32..1024"),
    ({"tile_p": 1024, "tile_k": 32}, "conv_direct_fwd: tile_p=1024: (tile_p / thread_p) * (tile_k / thread_k) = "
                                     "2048 threads; must be a multiple of 32 in 32..1024"),
    ({"filter_y": 17}, "conv_direct_fwd: filter_y=17: must be in 1..16"),
    ({"filter_x": 13, "filter_y": 5}, "conv_direct_fwd: filter_x=13: filter_y * filter_x = 65 taps exceed the "
                                      "limit of 64"),
    ({"stride_h": 9}, "conv_direct_fwd: stride_h=9: must be in 1..8"),
    ({"dil_w": 0}, "conv_direct_fwd: dil_w=0: must be in 1..8"),
    ({"pad_h": 5, "dil_h": 2}, "conv_direct_fwd: pad_h=5: must be in 0..4 (at most dil_h * (filter_y - 1), so "
                               "every output sees the input)"),
]


ARCH_REFUSALS = [
    ({"tile_k": 24}, "gfx942", "conv_direct_fwd: tile_p=64: (tile_p / thread_p) * (tile_k / thread_k) = 96 threads; "
     "must be a multiple of the wave size 64 of gfx942"),
]


class TestConvDirectFwdSpecs(kit.SpecConformance):
    family, base = FAMILY, BASE
    spec_refusals, arch_refusals = SPEC_REFUSALS, ARCH_REFUSALS


def test_rules_run_in_order_and_report_the_first_failure() -> None:
    kit.check_spec_refusal(ConvDirectFwdSpec, kit.with_changes(BASE, thread_k=3, tile_p=7, stride_h=0),
                           "conv_direct_fwd: thread_k=3: must be 1, 2, 4 or 8")
