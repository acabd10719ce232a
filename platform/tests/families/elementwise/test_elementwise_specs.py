"""elementwise specs: canonical kv round trips, kernel names, and the exact text of every refusal
(spec rules and arch rules); the C++ twin must reproduce these strings byte for byte."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rocke.families.elementwise import OPS, ElementwiseSpec
from rocke.families.elementwise.family import FAMILY
from rocke.gates import conformance as kit

BASE = "block=256 dtype=f16 op=add vec=8"


@st.composite
def specs(draw: st.DrawFn) -> ElementwiseSpec:
    dtype = draw(st.sampled_from(["f16", "bf16", "f32"]))
    vec = draw(st.sampled_from([1, 2, 4] if dtype == "f32" else [1, 2, 4, 8]))
    return ElementwiseSpec(block=32 * draw(st.integers(1, 32)), dtype=dtype, op=draw(st.sampled_from(OPS)), vec=vec)


@given(specs())
@settings(max_examples=100, deadline=None)
def test_canonical_round_trip(spec: ElementwiseSpec) -> None:
    kit.check_round_trip(spec)


def test_kv_texts() -> None:
    assert ElementwiseSpec(block=128, dtype="bf16", op="silu", vec=4).to_kv() == "block=128 dtype=bf16 op=silu vec=4"
    assert ElementwiseSpec.from_kv(BASE).inputs == ("x", "y")
    assert ElementwiseSpec.from_kv(kit.with_changes(BASE, op="gelu_tanh")).inputs == ("x",)


def test_kernel_names_differ_between_specs() -> None:
    names = {ElementwiseSpec.from_kv(kit.with_changes(BASE, vec=v)).kernel_name() for v in (1, 2, 4, 8)}
    assert len(names) == 4


SPEC_REFUSALS = [
    ({"op": "tanh"}, "elementwise: op=tanh: must be one of add, sub, mul, max, relu, silu, gelu_tanh"),
    ({"dtype": "f64"}, "elementwise: dtype=f64: must be one of f16, bf16, f32"),
    ({"vec": 3}, "elementwise: vec=3: must be 1, 2, 4 or 8"),
    ({"vec": 8, "dtype": "f32"}, "elementwise: vec=8: one f32 access holds at most 4 elements (16 bytes)"),
    ({"block": 48}, "elementwise: block=48: must be a multiple of 32 in 32..1024"),
    ({"block": 1056}, "elementwise: block=1056: must be a multiple of 32 in 32..1024"),
    ({"block": 0}, "elementwise: block=0: must be a multiple of 32 in 32..1024"),
    ({"op": "tanh", "vec": 3}, "elementwise: op=tanh: must be one of add, sub, mul, max, relu, silu, gelu_tanh"),
]

ARCH_REFUSALS = [
    ({"block": 96}, "gfx942", "elementwise: block=96: must be a multiple of the wave size 64 of gfx942"),
    ({"block": 160}, "gfx950", "elementwise: block=160: must be a multiple of the wave size 64 of gfx950"),
]


class TestElementwiseSpecs(kit.SpecConformance):
    family, base = FAMILY, BASE
    spec_refusals, arch_refusals = SPEC_REFUSALS, ARCH_REFUSALS
