"""The C++ twin of attention_bwd_convert builds the Python builder's kernels byte for byte: every
line of attention_bwd_convert.cfg through the three emitters, every refusal text in both engines,
random specs on every arch. Needs the installed wheels."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_attention_bwd_convert_specs import ARCH_REFUSALS, BASE, SPEC_REFUSALS

from rocke.arch import ARCH_NAMES
from rocke.gates import conformance as kit
from rocke_library.kernels.attention.attention_bwd_convert.family import FAMILY

pytestmark = pytest.mark.parity


class TestAttentionBwdConvertParity(kit.ParityConformance):
    family, base, base_arch = FAMILY, BASE, "gfx942"
    spec_refusals, arch_refusals = SPEC_REFUSALS, ARCH_REFUSALS


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, str]:
    arch = draw(st.sampled_from(ARCH_NAMES))
    changes: dict[str, object] = {
        "block": 64 * draw(st.integers(1, 8)),
        "dq_mode": draw(st.sampled_from(["atomic", "split"])),
        "dkv_mode": draw(st.sampled_from(["atomic", "split"])),
        "dtype": draw(st.sampled_from(["f16", "bf16"])),
        "head_dim": draw(st.sampled_from([32, 64, 128])),
        "seq_mode": draw(st.sampled_from(["batched", "varlen"])),
        "vec": draw(st.sampled_from([1, 2, 4, 8])),
    }
    if draw(st.integers(0, 9)) == 0:
        changes["dkv_mode"] = "direct"
    return kit.with_changes(BASE, **changes), arch


@given(cases())
@settings(max_examples=25, deadline=None)
def test_random_specs(case: tuple[str, str]) -> None:
    kit.same(FAMILY, *case)
