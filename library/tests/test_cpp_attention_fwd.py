"""The C++ twin of attention_fwd builds the Python builder's kernels byte for byte.

Every line of attention_fwd.cfg through the three emitters (Python engine, rocke_library_engine
bindings, rocke-library-emit) with IR and both flavors' .ll compared; every refusal text (spec
rules, arch rules, unknown arch); random specs on every arch. Needs the installed wheels.
"""

from __future__ import annotations

from typing import Any

import pytest
from attention_cases import ATTN, FAMILIES, with_changes
from cpp_parity import assert_all_pass, config_verdicts, library_engine, same
from hypothesis import given, settings
from hypothesis import strategies as st
from test_attention_specs import ATTN_REFUSALS

from rocke.arch import ARCH_NAMES, MMA_OPS

pytestmark = pytest.mark.parity

FAMILY = FAMILIES["attention_fwd"]


@pytest.fixture(scope="module")
def engine() -> Any:
    engine = library_engine()
    if FAMILY.name not in engine.family_names():
        pytest.fail("the installed rocke_library_engine has no C++ attention_fwd builder")
    return engine


def test_config_file_three_ways(engine: Any) -> None:
    assert_all_pass(config_verdicts(FAMILY))


@pytest.mark.parametrize(("changes", "message"), ATTN_REFUSALS)
def test_spec_rule_refusals(engine: Any, changes: dict, message: str | None) -> None:
    status, text = same(FAMILY, with_changes(ATTN, **changes), "gfx950")
    if message is not None:
        assert (status, text) == ("ValueError", message)


@pytest.mark.parametrize(("arch", "changes"), [
    ("gfx942", {"op_id": "mfma_f32_32x32x16_f16"}),
    ("gfx942", {"block_m": 512, "op_id": "mfma_f32_16x16x16_f16", "waves": 32}),
    ("gfx942", {"block_n": 256, "head_dim": 128}),
    ("gfx1100", {"block_n": 128, "head_dim": 128, "op_id": "wmma_f32_16x16x16_f16_gfx11", "waves": 4}),
])
def test_arch_rule_refusals(engine: Any, arch: str, changes: dict) -> None:
    status, message = same(FAMILY, with_changes(ATTN, **changes), arch)
    assert status == "ValueError" and message.startswith("attention_fwd: ")


@pytest.mark.parametrize("arch", ["gfx90a", "gfx1200"])
def test_unknown_arch(engine: Any, arch: str) -> None:
    status, message = same(FAMILY, ATTN, arch)
    assert status == "KeyError+ValueError" and message.startswith("unknown arch")


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, str]:
    """Mostly valid specs on every arch (any catalog atom of the dtype), some breaking a rule."""
    arch = draw(st.sampled_from(ARCH_NAMES))
    dtype = draw(st.sampled_from(["f16", "bf16"]))
    ops = [op for op in MMA_OPS if op.a_dtype == dtype and arch in op.archs]
    op = draw(st.sampled_from(ops))
    waves = draw(st.sampled_from([1, 2, 4]))
    changes: dict[str, object] = {
        "dtype": dtype, "op_id": op.id, "waves": waves,
        "block_m": waves * op.n * draw(st.integers(1, 2)),
        "block_n": max(op.m, op.k) * draw(st.integers(1, 2)),
        "head_dim": draw(st.sampled_from([32, 64, 128])),
        "mask": draw(st.sampled_from(["none", "causal_tl", "causal_br"])),
        "seq_mode": draw(st.sampled_from(["batched", "varlen"])),
        "lds_pad": draw(st.sampled_from([0, 2, 8])),
    }
    if draw(st.integers(0, 9)) == 0:
        key = draw(st.sampled_from(["block_m", "block_n", "head_dim", "waves", "lds_pad"]))
        changes[key] = draw(st.integers(-3, 300))
    return with_changes(ATTN, **changes), arch


@given(cases())
@settings(max_examples=40, deadline=None)
def test_random_specs(engine: Any, case: tuple[str, str]) -> None:
    same(FAMILY, *case)
