"""The C++ twin of img2col builds the Python builder's kernels byte for byte.

Every line of img2col.cfg through the three emitters (Python engine, rocke_library_engine
bindings, rocke-library-emit) with IR and both flavors' .ll compared; every refusal text (spec
rules, arch rule, unknown arch); random specs on every arch. Needs the installed wheels.
"""

from __future__ import annotations

from typing import Any

import pytest
from conv_cases import FAMILIES, with_changes
from cpp_parity import assert_all_pass, config_verdicts, library_engine, same
from hypothesis import given, settings
from hypothesis import strategies as st
from test_conv_specs import IMG2COL, IMG2COL_REFUSALS

from rocke.arch import ARCH_NAMES

pytestmark = pytest.mark.parity

FAMILY = FAMILIES["img2col"]


@pytest.fixture(scope="module")
def engine() -> Any:
    engine = library_engine()
    if FAMILY.name not in engine.family_names():
        pytest.fail("the installed rocke_library_engine has no C++ img2col builder")
    return engine


def test_config_file_three_ways(engine: Any) -> None:
    assert_all_pass(config_verdicts(FAMILY))


@pytest.mark.parametrize(("changes", "message"), IMG2COL_REFUSALS)
def test_spec_rule_refusals(engine: Any, changes: dict, message: str) -> None:
    assert same(FAMILY, with_changes(IMG2COL, **changes), "gfx1100") == ("ValueError", message)


@pytest.mark.parametrize(("block", "arch"), [(96, "gfx942"), (160, "gfx950"), (32, "gfx942")])
def test_arch_rule_refusal(engine: Any, block: int, arch: str) -> None:
    status, message = same(FAMILY, with_changes(IMG2COL, block=block), arch)
    assert status == "ValueError" and message.endswith(f"wave size 64 of {arch}")


@pytest.mark.parametrize("arch", ["gfx90a", "", "GFX942"])
def test_unknown_arch(engine: Any, arch: str) -> None:
    status, message = same(FAMILY, IMG2COL, arch)
    assert status == "KeyError+ValueError" and message.startswith("unknown arch")


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
    return with_changes(IMG2COL, **changes), draw(st.sampled_from(ARCH_NAMES))


@given(cases())
@settings(max_examples=120, deadline=None)
def test_random_specs(engine: Any, case: tuple[str, str]) -> None:
    same(FAMILY, *case)
