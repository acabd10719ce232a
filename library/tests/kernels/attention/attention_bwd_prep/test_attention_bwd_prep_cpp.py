"""The C++ twin of attention_bwd_prep builds the Python builder's kernels byte for byte: every line
of attention_bwd_prep.cfg through the three emitters, every refusal text in both engines, random
specs on every arch. Needs the installed wheels."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_attention_bwd_prep_specs import ARCH_REFUSALS, BASE, SPEC_REFUSALS

from rocke.arch import ARCH_NAMES
from rocke.gates import conformance as kit
from rocke_library.kernels.attention.attention_bwd_prep.family import FAMILY

pytestmark = pytest.mark.parity


class TestAttentionBwdPrepParity(kit.ParityConformance):
    family, base, base_arch = FAMILY, BASE, "gfx942"
    spec_refusals, arch_refusals = SPEC_REFUSALS, ARCH_REFUSALS


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, str]:
    arch = draw(st.sampled_from(ARCH_NAMES))
    changes: dict[str, object] = {
        "block": 64 * draw(st.integers(1, 8)),
        "dtype": draw(st.sampled_from(["f16", "bf16"])),
        "head_dim": draw(st.sampled_from([32, 64, 128])),
        "seq_mode": draw(st.sampled_from(["batched", "varlen"])),
        "vec": draw(st.sampled_from([2, 4, 8])),
    }
    if draw(st.integers(0, 9)) == 0:
        key = draw(st.sampled_from(["block", "head_dim", "vec"]))
        changes[key] = draw(st.integers(-3, 300))
    return kit.with_changes(BASE, **changes), arch


@given(cases())
@settings(max_examples=25, deadline=None)
def test_random_specs(case: tuple[str, str]) -> None:
    kit.same(FAMILY, *case)
