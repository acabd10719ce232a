"""Conv family specs: canonical kv round trips, kernel names, and the exact text of every refusal
(spec rules and arch rules); the C++ twins must reproduce these strings byte for byte."""

from __future__ import annotations

import re

import pytest
from conv_cases import with_changes
from hypothesis import given, settings
from hypothesis import strategies as st

from rocke.families.spec import SpecError
from rocke_library.kernels.conv import conv_direct_fwd, img2col
from rocke_library.kernels.conv.conv_direct_fwd import ConvDirectFwdSpec
from rocke_library.kernels.conv.img2col import Img2colSpec

IMG2COL = ("block=256 dil_h=1 dil_w=1 dtype=f16 filter_x=3 filter_y=3 pad_h=1 pad_w=1 stride_h=1 stride_w=1 "
           "vec=8")
CONV = ("bias=1 depthwise=0 dil_h=1 dil_w=1 dtype=f16 filter_x=3 filter_y=3 pad_h=1 pad_w=1 relu=1 stride_h=1 "
        "stride_w=1 thread_k=4 thread_p=4 tile_k=64 tile_p=64 vec=8")


@st.composite
def windows(draw: st.DrawFn) -> dict[str, int]:
    fy, fx = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    dh, dw = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    return {"filter_y": fy, "filter_x": fx, "dil_h": dh, "dil_w": dw, "stride_h": draw(st.integers(1, 8)),
            "stride_w": draw(st.integers(1, 8)), "pad_h": draw(st.integers(0, dh * (fy - 1))),
            "pad_w": draw(st.integers(0, dw * (fx - 1)))}


@st.composite
def img2col_specs(draw: st.DrawFn) -> Img2colSpec:
    dtype = draw(st.sampled_from(["f16", "bf16", "f32"]))
    vec = draw(st.sampled_from([1, 2, 4] if dtype == "f32" else [1, 2, 4, 8]))
    return Img2colSpec(block=32 * draw(st.integers(1, 32)), dtype=dtype, vec=vec, **draw(windows()))


@st.composite
def conv_specs(draw: st.DrawFn) -> ConvDirectFwdSpec:
    dtype = draw(st.sampled_from(["f16", "bf16", "f32"]))
    vec = draw(st.sampled_from([1, 2, 4] if dtype == "f32" else [1, 2, 4, 8]))
    depthwise = draw(st.booleans())
    thread_k = draw(st.sampled_from([k for k in (1, 2, 4, 8) if not depthwise or k % vec == 0]))
    threads = 32 * draw(st.integers(1, 8))
    k_threads = draw(st.sampled_from([k for k in (1, 2, 4, 8, 16, 32) if threads % k == 0]))
    p_threads = threads // k_threads
    thread_p = draw(st.integers(1, min(16, 64 // thread_k, 1024 // p_threads)))
    return ConvDirectFwdSpec(bias=draw(st.booleans()), depthwise=depthwise, dtype=dtype, relu=draw(st.booleans()),
                             thread_k=thread_k, thread_p=thread_p, tile_k=thread_k * k_threads,
                             tile_p=thread_p * p_threads, vec=vec, **draw(windows()))


@given(st.one_of(img2col_specs(), conv_specs()))
@settings(max_examples=150, deadline=None)
def test_canonical_round_trip(spec: Img2colSpec | ConvDirectFwdSpec) -> None:
    kv = spec.to_kv()
    again = type(spec).from_kv(kv)
    assert again == spec and again.to_kv() == kv
    keys = [pair.split("=")[0] for pair in kv.split(" ")]
    assert keys == sorted(keys)
    assert re.fullmatch(rf"{spec.FAMILY}_[0-9a-f]{{10}}", spec.kernel_name())


def test_distinct_specs_get_distinct_kernel_names() -> None:
    a = Img2colSpec.from_kv(IMG2COL)
    b = Img2colSpec.from_kv(with_changes(IMG2COL, stride_h=2))
    assert a.kernel_name() != b.kernel_name()
    assert ConvDirectFwdSpec.from_kv(CONV).kernel_name().startswith("conv_direct_fwd_")


IMG2COL_REFUSALS = [
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


@pytest.mark.parametrize(("changes", "message"), IMG2COL_REFUSALS, ids=[m.split(":")[1] for _, m in IMG2COL_REFUSALS])
def test_img2col_refusal_texts(changes: dict[str, object], message: str) -> None:
    with pytest.raises(SpecError) as info:
        Img2colSpec.from_kv(with_changes(IMG2COL, **changes))
    assert str(info.value) == message


CONV_REFUSALS = [
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


@pytest.mark.parametrize(("changes", "message"), CONV_REFUSALS, ids=[m.split(":")[1] for _, m in CONV_REFUSALS])
def test_conv_refusal_texts(changes: dict[str, object], message: str) -> None:
    with pytest.raises(SpecError) as info:
        ConvDirectFwdSpec.from_kv(with_changes(CONV, **changes))
    assert str(info.value) == message


def test_rules_run_in_order_and_report_the_first_failure() -> None:
    with pytest.raises(SpecError, match=r"^img2col: dtype=f64: "):
        Img2colSpec.from_kv(with_changes(IMG2COL, dtype="f64", vec=3, block=7))
    with pytest.raises(SpecError, match=r"^conv_direct_fwd: thread_k=3: "):
        ConvDirectFwdSpec.from_kv(with_changes(CONV, thread_k=3, tile_p=7, stride_h=0))


@pytest.mark.parametrize(("spec_class", "base"), [(Img2colSpec, IMG2COL), (ConvDirectFwdSpec, CONV)])
def test_kv_parse_errors(spec_class: type, base: str) -> None:
    family = spec_class.FAMILY
    with pytest.raises(SpecError, match=rf"^{family}: missing key 'vec'$"):
        spec_class.from_kv(base.replace(" vec=8", ""))
    with pytest.raises(SpecError, match=rf"^{family}: unknown key 'groups'; known keys: "):
        spec_class.from_kv(base + " groups=2")
    with pytest.raises(SpecError, match=rf"^{family}: dil_h=x: must be a decimal integer$"):
        spec_class.from_kv(base.replace("dil_h=1", "dil_h=x"))


ARCH_REFUSALS = [
    (img2col.build, Img2colSpec, with_changes(IMG2COL, block=96), "gfx942",
     "img2col: block=96: must be a multiple of the wave size 64 of gfx942"),
    (img2col.build, Img2colSpec, with_changes(IMG2COL, block=160), "gfx950",
     "img2col: block=160: must be a multiple of the wave size 64 of gfx950"),
    (conv_direct_fwd.build, ConvDirectFwdSpec, with_changes(CONV, tile_k=24), "gfx942",
     "conv_direct_fwd: tile_p=64: (tile_p / thread_p) * (tile_k / thread_k) = 96 threads; must be a multiple of "
     "the wave size 64 of gfx942"),
]


@pytest.mark.parametrize(("build", "spec_class", "kv", "arch", "message"), ARCH_REFUSALS)
def test_arch_refusal_texts(build, spec_class: type, kv: str, arch: str, message: str) -> None:
    spec = spec_class.from_kv(kv)
    with pytest.raises(SpecError) as info:
        build(spec, arch)
    assert str(info.value) == message
    wave32 = "gfx1100"
    build(spec, wave32)  # the same spec is fine on a wave32 arch


@pytest.mark.parametrize(("build", "spec"), [(img2col.build, Img2colSpec.from_kv(IMG2COL)),
                                             (conv_direct_fwd.build, ConvDirectFwdSpec.from_kv(CONV))])
def test_unknown_fault_and_arch(build, spec) -> None:
    with pytest.raises(ValueError, match=r"^unknown fault 'typo'$"):
        build(spec, "gfx942", _fault="typo")
    with pytest.raises(KeyError):
        build(spec, "gfx90a")
