"""The C++ twin of the gemm family builds the Python builder's kernels byte for byte.

For every line of gemm.cfg (Python engine, rocke_engine bindings and rocke-emit, IR and both
flavors' .ll), random specs, and every refusal (kv parsing, spec rules, arch rules): both engines
build the same text, or refuse with the same exception kind and text. Needs the installed wheel.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_gemm_specs import ARCH_REFUSALS, BASE, SPEC_REFUSALS

from rocke.arch import ARCH_NAMES, MMA_OPS
from rocke.families.gemm.family import FAMILY
from rocke.gates import conformance as kit

pytestmark = pytest.mark.parity


class TestGemmParity(kit.ParityConformance):
    family, base, base_arch = FAMILY, BASE, "gfx942"
    spec_refusals, arch_refusals = SPEC_REFUSALS, ARCH_REFUSALS


KV_REFUSALS = [
    "",
    "bm",
    "=64",
    BASE + " ",
    " " + BASE,
    BASE.replace(" ", "  ", 1),
    BASE + " tile=3",
    BASE + " bm=64",
    BASE.replace("bm=64 ", ""),
    BASE.replace("wn=2", "").strip(),
    kit.with_changes(BASE, bm="0x40"),
    kit.with_changes(BASE, bm="064"),
    kit.with_changes(BASE, bm="+64"),
    kit.with_changes(BASE, bm="1234567890123456789"),
    kit.with_changes(BASE, bm="-0"),
    kit.with_changes(BASE, bias="2"),
    kit.with_changes(BASE, bias="true"),
    kit.with_changes(BASE, double_buffer=""),
    kit.with_changes(BASE, op_id="mfma f32"),
    kit.with_changes(BASE, op_id="mfma/f32"),
    kit.with_changes(BASE, a_dtype=""),
]

SPEC_RULES = [
    {"a_dtype": "f32"},
    {"a_dtype": "f8", "b_dtype": "f8"},
    {"b_dtype": "bf16"},
    {"c_dtype": "i32"},
    {"c_dtype": "f64"},
    {"a_layout": "diag"},
    {"b_layout": "t"},
    {"op_id": "mfma_f32_64x64x4_f16"},
    {"op_id": "mfma_f32_32x32x8_bf16"},
    {"a_dtype": "bf16", "b_dtype": "bf16"},
    {"wm": 0},
    {"wm": 33},
    {"wn": 33},
    {"wn": -1},
    {"bm": 1024},
    {"bn": 0},
    {"bk": 512},
    {"bk": -32},
    {"bm": 48},
    {"bn": 96},
    {"bk": 12},
    {"lds_pad": 65},
    {"lds_pad": -1},
    {"op_id": "wmma_f32_16x16x16_f16_gfx11", "bm": 40},
    {"op_id": "wmma_f32_16x16x16_f16_gfx12", "bn": 24, "wn": 1},
]

ARCH_RULES = [
    ({}, "gfx1100"),
    ({}, "gfx90a"),
    ({}, ""),
    ({"op_id": "mfma_f32_16x16x32_f16", "bm": 32, "bn": 32}, "gfx942"),
    ({"op_id": "wmma_f32_16x16x16_f16_gfx12", "bk": 16}, "gfx1100"),
    ({"op_id": "wmma_f32_16x16x16_f16_gfx11", "bk": 16}, "gfx1201"),
    ({"wm": 4, "wn": 8, "bm": 128, "bn": 256}, "gfx942"),
    ({"op_id": "wmma_f32_16x16x16_f16_gfx11", "wm": 8, "wn": 8, "bm": 128, "bn": 128, "bk": 16}, "gfx1100"),
    ({"op_id": "mfma_f32_16x16x16_f16", "wm": 1, "wn": 8, "bm": 16, "bn": 128, "bk": 16}, "gfx942"),
    ({"op_id": "mfma_f32_16x16x16_f16", "wm": 8, "wn": 1, "bm": 128, "bn": 16, "bk": 16}, "gfx942"),
    ({"bm": 512, "bk": 128, "lds_pad": 8}, "gfx950"),
    ({"bn": 512, "bk": 128, "lds_pad": 8}, "gfx950"),
    ({"bm": 128, "bn": 128, "bk": 128, "lds_pad": 8, "double_buffer": 1}, "gfx942"),
    ({"bm": 128, "bn": 128, "bk": 128, "lds_pad": 8, "double_buffer": 1}, "gfx950"),
]


@pytest.mark.parametrize("kv", KV_REFUSALS)
def test_kv_parsing_refusals(kv: str) -> None:
    status, message = kit.same(FAMILY, kv, "gfx942")
    assert status == "ValueError" and message.startswith("gemm: ")


@pytest.mark.parametrize("changes", SPEC_RULES)
def test_spec_rule_refusals(changes: dict) -> None:
    status, message = kit.same(FAMILY, kit.with_changes(BASE, **changes), "gfx942")
    assert status == "ValueError" and message.startswith("gemm: ")


@pytest.mark.parametrize(("changes", "arch"), ARCH_RULES)
def test_arch_rule_refusals(changes: dict, arch: str) -> None:
    kit.same(FAMILY, kit.with_changes(BASE, **changes), arch)


def test_spec_errors_come_before_the_arch() -> None:
    status, message = kit.same(FAMILY, kit.with_changes(BASE, bm=48), "gfx90a")
    assert status == "ValueError" and message.startswith("gemm: bm=48")


@st.composite
def gemm_cases(draw: st.DrawFn) -> tuple[str, str]:
    op = draw(st.sampled_from(MMA_OPS))
    wm, wn = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    layouts = st.sampled_from(["row", "col"])
    kv = kit.with_changes(BASE, a_dtype=op.a_dtype, b_dtype=op.b_dtype, op_id=op.id, wm=wm, wn=wn,
                          a_layout=draw(layouts), b_layout=draw(layouts),
                          bias=int(draw(st.booleans())), double_buffer=int(draw(st.booleans())),
                          bk=op.k * draw(st.integers(1, 4)), bm=wm * op.m * draw(st.integers(1, 2)),
                          bn=wn * op.n * draw(st.integers(1, 2)), c_dtype=draw(st.sampled_from(["f16", "bf16", "f32"])),
                          lds_pad=draw(st.integers(0, 9)))
    arch = draw(st.sampled_from(op.archs)) if draw(st.integers(0, 4)) else draw(st.sampled_from(ARCH_NAMES))
    return kv, arch


@given(gemm_cases())
@settings(max_examples=30, deadline=None)
def test_random_specs(case: tuple[str, str]) -> None:
    kit.same(FAMILY, *case)
