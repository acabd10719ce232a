"""The C++ twin of the elementwise family builds the Python builder's kernels byte for byte.

For every line of elementwise.cfg (Python engine, rocke_engine bindings and rocke-emit, IR and both
flavors' .ll), random specs on every arch, and every refusal (spec rules, the arch rule, unknown
arches): both engines build the same text, or refuse with the same exception kind and text. Needs
the installed wheel.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_elementwise_specs import ARCH_REFUSALS, BASE, SPEC_REFUSALS

from rocke.arch import ARCH_NAMES
from rocke.families.elementwise import OPS
from rocke.families.elementwise.family import FAMILY
from rocke.gates import conformance as kit

pytestmark = pytest.mark.parity


class TestElementwiseParity(kit.ParityConformance):
    family, base, base_arch = FAMILY, BASE, "gfx1100"
    spec_refusals, arch_refusals = SPEC_REFUSALS, ARCH_REFUSALS


def test_spec_errors_come_before_the_arch() -> None:
    assert kit.same(FAMILY, kit.with_changes(BASE, block=48), "gfx90a")[1].startswith("elementwise: block=48")


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, str]:
    """Mostly valid specs on every arch, some breaking a rule."""
    dtype = draw(st.sampled_from(["f16", "bf16", "f32"]))
    vec = draw(st.sampled_from([1, 2, 4, 8] if draw(st.integers(0, 9)) else [3, 16, 0]))
    block = 32 * draw(st.integers(1, 32)) if draw(st.integers(0, 9)) else draw(st.integers(-64, 2048))
    kv = kit.with_changes(BASE, block=block, dtype=dtype, op=draw(st.sampled_from(OPS)), vec=vec)
    return kv, draw(st.sampled_from(ARCH_NAMES))


@given(cases())
@settings(max_examples=120, deadline=None)
def test_random_specs(case: tuple[str, str]) -> None:
    kit.same(FAMILY, *case)
