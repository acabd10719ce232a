"""The C++ twin of conv_igemm_dgrad builds the Python builder's kernels byte for byte.

Every line of conv_igemm_dgrad.cfg through the three emitters (Python engine, rocke_library_engine
bindings, rocke-library-emit) with IR and both flavors' .ll compared; every refusal text (spec rules,
the main loop plan's arch rules, unknown arch); random specs on every arch. Needs the installed
wheels.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_conv_igemm_dgrad_specs import ARCH_REFUSALS, BASE, SPEC_REFUSALS

from rocke.arch import ARCH_NAMES
from rocke.gates import conformance as kit
from rocke_library.kernels.conv.conv_igemm_dgrad.family import FAMILY

pytestmark = pytest.mark.parity

ATOMS = {"f16": ["mfma_f32_32x32x8_f16", "mfma_f32_16x16x16_f16", "wmma_f32_16x16x16_f16_gfx11",
                 "wmma_f32_16x16x16_f16_gfx12"],
         "bf16": ["mfma_f32_16x16x16_bf16", "wmma_f32_16x16x16_bf16_gfx11", "wmma_f32_16x16x16_bf16_gfx12"]}


class TestConvIgemmDgradParity(kit.ParityConformance):
    family, base, base_arch = FAMILY, BASE, "gfx942"
    spec_refusals, arch_refusals = SPEC_REFUSALS, ARCH_REFUSALS


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, str]:
    """Mostly valid specs (any window, atom and tile) on every arch, some breaking a rule."""
    dtype = draw(st.sampled_from(["f16", "bf16"]))
    op_id = draw(st.sampled_from(ATOMS[dtype]))
    atom = 32 if "32x32" in op_id else 16
    wm, wn = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    fy, fx = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    dh, dw = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    changes: dict[str, object] = {
        "dtype": dtype, "op_id": op_id, "wm": wm, "wn": wn, "bm": wm * atom * draw(st.integers(1, 2)),
        "bn": wn * atom, "bk": 16 * draw(st.integers(1, 2)), "vec": draw(st.sampled_from([1, 2, 4, 8])),
        "lds_pad": draw(st.sampled_from([0, 2, 8])), "double_buffer": draw(st.booleans()),
        "filter_y": fy, "filter_x": fx, "dil_h": dh, "dil_w": dw,
        "stride_h": draw(st.integers(1, 3)), "stride_w": draw(st.integers(1, 3)),
        "pad_h": draw(st.integers(0, dh * (fy - 1))), "pad_w": draw(st.integers(0, dw * (fx - 1))),
    }
    if draw(st.integers(0, 9)) == 0:
        key = draw(st.sampled_from(sorted(k for k in changes if k not in ("double_buffer", "dtype", "op_id"))))
        changes[key] = draw(st.integers(-3, 70))
    return kit.with_changes(BASE, **changes), draw(st.sampled_from(ARCH_NAMES))


@given(cases())
@settings(max_examples=25, deadline=None)
def test_random_specs(case: tuple[str, str]) -> None:
    kit.same(FAMILY, *case)
