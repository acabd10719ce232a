"""Both conv families' specs: canonical kv round trips, kernel names, kv parse errors (the refusal
texts of each family's rules are in its folder)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rocke.families.spec import SpecError
from rocke.gates import conformance as kit
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
    kit.check_round_trip(spec)


def test_distinct_specs_get_distinct_kernel_names() -> None:
    a = Img2colSpec.from_kv(IMG2COL)
    b = Img2colSpec.from_kv(kit.with_changes(IMG2COL, stride_h=2))
    assert a.kernel_name() != b.kernel_name()
    assert ConvDirectFwdSpec.from_kv(CONV).kernel_name().startswith("conv_direct_fwd_")


@pytest.mark.parametrize(("spec_class", "base"), [(Img2colSpec, IMG2COL), (ConvDirectFwdSpec, CONV)])
def test_kv_parse_errors(spec_class: type, base: str) -> None:
    family = spec_class.FAMILY
    with pytest.raises(SpecError, match=rf"^{family}: missing key 'vec'$"):
        spec_class.from_kv(base.replace(" vec=8", ""))
    with pytest.raises(SpecError, match=rf"^{family}: unknown key 'groups'; known keys: "):
        spec_class.from_kv(base + " groups=2")
    with pytest.raises(SpecError, match=rf"^{family}: dil_h=x: must be a decimal integer$"):
        spec_class.from_kv(base.replace("dil_h=1", "dil_h=x"))
