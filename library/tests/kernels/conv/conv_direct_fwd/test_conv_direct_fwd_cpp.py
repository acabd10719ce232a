"""The C++ twin of conv_direct_fwd builds the Python builder's kernels byte for byte.

Every line of conv_direct_fwd.cfg through the three emitters (Python engine, rocke_library_engine
bindings, rocke-library-emit) with IR and both flavors' .ll compared; every refusal text (spec
rules, arch rule, unknown arch); random grouped and depthwise specs on every arch. Needs the
installed wheels.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_conv_direct_fwd_specs import ARCH_REFUSALS, BASE, SPEC_REFUSALS

from rocke.arch import ARCH_NAMES
from rocke.gates import conformance as kit
from rocke_library.kernels.conv.conv_direct_fwd.family import FAMILY

pytestmark = pytest.mark.parity


class TestConvDirectFwdParity(kit.ParityConformance):
    family, base, base_arch = FAMILY, BASE, "gfx1201"
    spec_refusals, arch_refusals = SPEC_REFUSALS, ARCH_REFUSALS


def test_arch_rule_refusal() -> None:
    status, message = kit.same(FAMILY, kit.with_changes(BASE, tile_k=24), "gfx950")
    assert status == "ValueError"
    assert message == ("conv_direct_fwd: tile_p=64: (tile_p / thread_p) * (tile_k / thread_k) = 96 threads; must be "
                       "a multiple of the wave size 64 of gfx950")


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, str]:
    """Mostly valid grouped and depthwise specs on every arch, some breaking a rule."""
    dtype = draw(st.sampled_from(["f16", "bf16", "f32"]))
    vec = draw(st.sampled_from([1, 2, 4] if dtype == "f32" else [1, 2, 4, 8]))
    depthwise = draw(st.booleans())
    thread_k = draw(st.sampled_from([k for k in (1, 2, 4, 8) if not depthwise or k % vec == 0]))
    threads = 32 * draw(st.integers(1, 8))
    k_threads = draw(st.sampled_from([k for k in (1, 2, 4, 8, 16, 32) if threads % k == 0]))
    thread_p = draw(st.integers(1, min(4, 64 // thread_k)))
    fy, fx = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    dh, dw = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    changes: dict[str, object] = {
        "dtype": dtype, "vec": vec, "depthwise": depthwise, "bias": draw(st.booleans()), "relu": draw(st.booleans()),
        "thread_k": thread_k, "thread_p": thread_p, "tile_k": thread_k * k_threads,
        "tile_p": thread_p * (threads // k_threads), "filter_y": fy, "filter_x": fx, "dil_h": dh, "dil_w": dw,
        "stride_h": draw(st.integers(1, 3)), "stride_w": draw(st.integers(1, 3)),
        "pad_h": draw(st.integers(0, dh * (fy - 1))), "pad_w": draw(st.integers(0, dw * (fx - 1))),
    }
    if draw(st.integers(0, 9)) == 0:
        key = draw(st.sampled_from(sorted(k for k in changes if k not in ("bias", "depthwise", "relu", "dtype"))))
        changes[key] = draw(st.integers(-3, 70))
    return kit.with_changes(BASE, **changes), draw(st.sampled_from(ARCH_NAMES))


@given(cases())
@settings(max_examples=100, deadline=None)
def test_random_specs(case: tuple[str, str]) -> None:
    kit.same(FAMILY, *case)
