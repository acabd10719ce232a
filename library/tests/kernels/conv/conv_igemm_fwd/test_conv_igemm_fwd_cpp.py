"""The C++ twin of conv_igemm_fwd builds the Python builder's kernels byte for byte.

Every line of conv_igemm_fwd.cfg through the three emitters (Python engine, rocke_library_engine
bindings, rocke-library-emit) with IR and both flavors' .ll compared; every refusal text (spec
rules, arch rules, unknown arch); random specs on every arch. Needs the installed wheels.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_conv_igemm_fwd_specs import ARCH_REFUSALS, BASE, SPEC_REFUSALS

from rocke.arch import ARCH_NAMES, MMA_OP_IDS, mma_op
from rocke.gates import conformance as kit
from rocke_library.kernels.conv.conv_igemm_fwd.family import FAMILY

pytestmark = pytest.mark.parity


class TestConvIgemmFwdParity(kit.ParityConformance):
    family, base, base_arch = FAMILY, BASE, "gfx942"
    spec_refusals, arch_refusals = SPEC_REFUSALS, ARCH_REFUSALS


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, str]:
    """Mostly valid specs (an op of the arch, tiles that fit) on every arch, some breaking a rule."""
    arch = draw(st.sampled_from(ARCH_NAMES))
    ops = [op for op in MMA_OP_IDS if arch in mma_op(op).archs]
    op = mma_op(draw(st.sampled_from(ops)))
    wm, wn = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    fy, fx = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    dh, dw = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    changes: dict[str, object] = {
        "op_id": op.id, "dtype": op.a_dtype, "wm": wm, "wn": wn, "bm": wm * op.m * draw(st.integers(1, 2)),
        "bn": wn * op.n * draw(st.integers(1, 2)), "bk": op.k * draw(st.sampled_from([1, 2, 4])),
        "vec": draw(st.sampled_from([1, 2, 4, 8])), "lds_pad": draw(st.sampled_from([0, 4, 8])),
        "double_buffer": draw(st.booleans()), "bias": draw(st.booleans()), "relu": draw(st.booleans()),
        "filter_y": fy, "filter_x": fx, "dil_h": dh, "dil_w": dw,
        "stride_h": draw(st.integers(1, 2)), "stride_w": draw(st.integers(1, 2)),
        "pad_h": draw(st.integers(0, dh * (fy - 1))), "pad_w": draw(st.integers(0, dw * (fx - 1))),
    }
    if draw(st.integers(0, 9)) == 0:
        key = draw(st.sampled_from(["bm", "bn", "bk", "vec", "lds_pad", "filter_x", "pad_h", "wm"]))
        changes[key] = draw(st.integers(-3, 70))
    return kit.with_changes(BASE, **changes), arch


@given(cases())
@settings(max_examples=40, deadline=None)
def test_random_specs(case: tuple[str, str]) -> None:
    kit.same(FAMILY, *case)
