"""The C++ twin of attention_bwd_main builds the Python builder's kernels byte for byte.

Every line of attention_bwd_main.cfg through the three emitters (Python engine, rocke_library_engine
bindings, rocke-library-emit) with IR and both flavors' .ll compared; every refusal text of the spec
tables (spec rules, arch rules) and unknown arches in both engines; random specs over every catalog
atom on every arch. Needs the installed wheels.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_attention_bwd_main_specs import ARCH_REFUSALS, BASE, SPEC_REFUSALS

from rocke.arch import ARCH_NAMES, MMA_OPS
from rocke.gates import conformance as kit
from rocke_library.kernels.attention.attention_bwd_main.family import FAMILY

pytestmark = pytest.mark.parity


class TestAttentionBwdMainParity(kit.ParityConformance):
    family, base, base_arch = FAMILY, BASE, "gfx942"
    spec_refusals, arch_refusals = SPEC_REFUSALS, ARCH_REFUSALS


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, str]:
    """Mostly valid specs on every arch (any catalog atom of the dtype), some breaking a rule."""
    arch = draw(st.sampled_from(ARCH_NAMES))
    dtype = draw(st.sampled_from(["f16", "bf16"]))
    op = draw(st.sampled_from([op for op in MMA_OPS if op.a_dtype == dtype and arch in op.archs]))
    waves = draw(st.sampled_from([1, 2]))
    unit = max(op.n, op.k)
    changes: dict[str, object] = {
        "dtype": dtype, "op_id": op.id, "waves": waves,
        "block_m": max(op.m, op.k) * draw(st.integers(1, 2)),
        "block_n": waves * unit * draw(st.integers(1, 2)),
        "head_dim": draw(st.sampled_from([32, 64, 128])),
        "mask": draw(st.sampled_from(["none", "causal_tl", "causal_br"])),
        "seq_mode": draw(st.sampled_from(["batched", "varlen"])),
        "dq_mode": draw(st.sampled_from(["atomic", "split"])),
        "dkv_mode": draw(st.sampled_from(["direct", "atomic", "split"])),
        "lds_pad": draw(st.sampled_from([0, 2, 8])),
    }
    if draw(st.integers(0, 9)) == 0:
        key = draw(st.sampled_from(["block_m", "block_n", "head_dim", "waves", "lds_pad"]))
        changes[key] = draw(st.integers(-3, 300))
    return kit.with_changes(BASE, **changes), arch


@given(cases())
@settings(max_examples=25, deadline=None)
def test_random_specs(case: tuple[str, str]) -> None:
    kit.same(FAMILY, *case)
