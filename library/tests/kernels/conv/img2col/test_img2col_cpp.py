"""The C++ twin of img2col builds the Python builder's kernels byte for byte.

Every line of img2col.cfg through the three emitters (Python engine, rocke_library_engine
bindings, rocke-library-emit) with IR and both flavors' .ll compared; every refusal text (spec
rules, arch rule, unknown arch); random specs on every arch. Needs the installed wheels.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_img2col_specs import ARCH_REFUSALS, BASE, SPEC_REFUSALS

from rocke.arch import ARCH_NAMES
from rocke.gates import conformance as kit
from rocke_library.kernels.conv.img2col.family import FAMILY

pytestmark = pytest.mark.parity


class TestImg2colParity(kit.ParityConformance):
    family, base, base_arch = FAMILY, BASE, "gfx1100"
    spec_refusals, arch_refusals = SPEC_REFUSALS, ARCH_REFUSALS


@pytest.mark.parametrize(("block", "arch"), [(96, "gfx942"), (160, "gfx950"), (32, "gfx942")])
def test_arch_rule_refusal(block: int, arch: str) -> None:
    status, message = kit.same(FAMILY, kit.with_changes(BASE, block=block), arch)
    assert status == "ValueError" and message.endswith(f"wave size 64 of {arch}")


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, str]:
    """Mostly valid specs on every arch, some breaking a rule."""
    dtype = draw(st.sampled_from(["f16", "bf16", "f32"]))
    fy, fx = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    dh, dw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    changes = {
        "dtype": dtype, "vec": draw(st.sampled_from([1, 2, 4] if dtype == "f32" else [1, 2, 4, 8])),
        "block": 32 * draw(st.integers(1, 32)), "filter_y": fy, "filter_x": fx, "dil_h": dh, "dil_w": dw,
        "stride_h": draw(st.integers(1, 4)), "stride_w": draw(st.integers(1, 4)),
        "pad_h": draw(st.integers(0, dh * (fy - 1))), "pad_w": draw(st.integers(0, dw * (fx - 1))),
    }
    if draw(st.integers(0, 9)) == 0:
        changes[draw(st.sampled_from(sorted(changes)))] = draw(st.integers(-3, 40))
    return kit.with_changes(BASE, **changes), draw(st.sampled_from(ARCH_NAMES))


@given(cases())
@settings(max_examples=120, deadline=None)
def test_random_specs(case: tuple[str, str]) -> None:
    kit.same(FAMILY, *case)
