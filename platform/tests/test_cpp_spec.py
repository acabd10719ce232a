"""The C++ twin of rocke.families.spec parses kv texts exactly as Python does.

Every SpecError of ``Spec.from_kv`` -- malformed pairs, unknown, repeated and missing keys, bad int,
bool and str values -- has the same text in both engines, reached through ``rocke_engine.build_family``
(which parses the kv text before building; texts that parse are built on an arch where the base texts
build, and both engines must agree on that too) for the int/str fields of ``elementwise`` and the bool
fields of ``gemm``; random kv texts (hypothesis) agree too. Needs the installed wheel.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rocke.engine import native_engine
from rocke.families.elementwise import ElementwiseSpec
from rocke.families.elementwise import build as build_elementwise
from rocke.families.gemm import GemmSpec
from rocke.families.gemm import build as build_gemm
from rocke.families.spec import Spec, SpecError
from rocke.gates.conformance import with_changes as _with

pytestmark = pytest.mark.parity

EW = "block=256 dtype=f16 op=add vec=8"
GEMM = ("a_dtype=f16 a_layout=row b_dtype=f16 b_layout=row bias=0 bk=32 bm=64 bn=64 c_dtype=f32 double_buffer=0 "
        "lds_pad=0 op_id=mfma_f32_32x32x8_f16 wm=2 wn=2")
SPECS: dict[str, type[Spec]] = {"elementwise": ElementwiseSpec, "gemm": GemmSpec}
BUILDERS: dict[str, Callable[..., Any]] = {"elementwise": build_elementwise, "gemm": build_gemm}
ARCHS = {"elementwise": "gfx1100", "gemm": "gfx950"}  # archs on which the base texts build


@pytest.fixture(scope="module")
def engine() -> Any:
    return native_engine()


def _python_refusal(family: str, kv: str) -> str | None:
    try:
        BUILDERS[family](SPECS[family].from_kv(kv), ARCHS[family])
    except SpecError as exc:
        return str(exc)
    return None


def _cpp_refusal(engine: Any, family: str, kv: str) -> str | None:
    if family not in engine.family_names():
        pytest.fail(f"the installed rocke_engine has no C++ {family} builder")
    try:
        engine.build_family(family, kv, ARCHS[family])
    except ValueError as exc:
        return str(exc)
    return None


KV_REFUSALS = [
    ("elementwise", "", "elementwise: missing key 'block'"),
    ("elementwise", " ", "elementwise: malformed pair '' (expected key=value)"),
    ("elementwise", EW + " ", "elementwise: malformed pair '' (expected key=value)"),
    ("elementwise", " " + EW, "elementwise: malformed pair '' (expected key=value)"),
    ("elementwise", EW.replace(" ", "  ", 1), "elementwise: malformed pair '' (expected key=value)"),
    ("elementwise", "block", "elementwise: malformed pair 'block' (expected key=value)"),
    ("elementwise", "=256", "elementwise: malformed pair '=256' (expected key=value)"),
    ("elementwise", "==", "elementwise: malformed pair '==' (expected key=value)"),
    ("elementwise", EW + " lanes=4", "elementwise: unknown key 'lanes'; known keys: block, dtype, op, vec"),
    ("elementwise", "Block=256", "elementwise: unknown key 'Block'; known keys: block, dtype, op, vec"),
    ("elementwise", EW + " vec=8", "elementwise: key 'vec' given twice"),
    ("elementwise", "vec=8 vec=x", "elementwise: key 'vec' given twice"),
    ("elementwise", "block=256 dtype=f16 op=add", "elementwise: missing key 'vec'"),
    ("elementwise", "vec=8 op=add", "elementwise: missing key 'block'"),
    ("elementwise", "vec=8 op=add dtype=f16 block=256", None),
    ("elementwise", _with(EW, block="0x100"), "elementwise: block=0x100: must be a decimal integer"),
    ("elementwise", _with(EW, block="0256"), "elementwise: block=0256: must be a decimal integer"),
    ("elementwise", _with(EW, block="+256"), "elementwise: block=+256: must be a decimal integer"),
    ("elementwise", _with(EW, block=""), "elementwise: block=: must be a decimal integer"),
    ("elementwise", _with(EW, block="-"), "elementwise: block=-: must be a decimal integer"),
    ("elementwise", _with(EW, block="--1"), "elementwise: block=--1: must be a decimal integer"),
    ("elementwise", _with(EW, block="2.5"), "elementwise: block=2.5: must be a decimal integer"),
    ("elementwise", _with(EW, block="1" * 19), f"elementwise: block={'1' * 19}: must be a decimal integer"),
    ("elementwise", _with(EW, block="1" * 18), f"elementwise: block={'1' * 18}: must be a multiple of 32 in 32..1024"),
    ("elementwise", _with(EW, block="-" + "9" * 18),
     f"elementwise: block=-{'9' * 18}: must be a multiple of 32 in 32..1024"),
    ("elementwise", _with(EW, block="-0"), "elementwise: block=0: must be a multiple of 32 in 32..1024"),
    ("elementwise", _with(EW, block="\u0662\u0665\u0666"),
     "elementwise: block=\u0662\u0665\u0666: must be a decimal integer"),
    ("elementwise", _with(EW, vec="8="), "elementwise: vec=8=: must be a decimal integer"),
    ("elementwise", _with(EW, dtype=""), "elementwise: dtype=: must be letters, digits, '_', '.' or '-'"),
    ("elementwise", _with(EW, dtype="f 16"), "elementwise: malformed pair '16' (expected key=value)"),
    ("elementwise", _with(EW, dtype="f/16"), "elementwise: dtype=f/16: must be letters, digits, '_', '.' or '-'"),
    ("elementwise", _with(EW, dtype="f\t16"), "elementwise: dtype=f\t16: must be letters, digits, '_', '.' or '-'"),
    ("elementwise", _with(EW, op="\u00e9"), "elementwise: op=\u00e9: must be letters, digits, '_', '.' or '-'"),
    ("elementwise", _with(EW, op="a=b"), "elementwise: op=a=b: must be letters, digits, '_', '.' or '-'"),
    ("elementwise", _with(EW, op="A.b-c_9"),
     "elementwise: op=A.b-c_9: must be one of add, sub, mul, max, relu, silu, gelu_tanh"),
    ("gemm", _with(GEMM, bias="2"), "gemm: bias=2: must be 0 or 1"),
    ("gemm", _with(GEMM, bias="true"), "gemm: bias=true: must be 0 or 1"),
    ("gemm", _with(GEMM, bias="01"), "gemm: bias=01: must be 0 or 1"),
    ("gemm", _with(GEMM, double_buffer=""), "gemm: double_buffer=: must be 0 or 1"),
    ("gemm", _with(GEMM, bias="1"), None),
    ("gemm", "bias=1 bias=0", "gemm: key 'bias' given twice"),
    ("gemm", "bias=1", "gemm: missing key 'a_dtype'"),
    ("gemm", GEMM + " bk2=1", "gemm: unknown key 'bk2'; known keys: a_dtype, a_layout, b_dtype, b_layout, bias, bk, "
     "bm, bn, c_dtype, double_buffer, lds_pad, op_id, wm, wn"),
]


@pytest.mark.parametrize(("family", "kv", "message"), KV_REFUSALS)
def test_kv_refusals(engine: Any, family: str, kv: str, message: str | None) -> None:
    assert _python_refusal(family, kv) == message
    assert _cpp_refusal(engine, family, kv) == message


KEYS = ["block", "dtype", "op", "vec", "lanes", "", "Block", "bias", "double_buffer", "bm", "op_id"]
VALUES = ["0", "1", "-0", "-1", "32", "48", "64", "96", "256", "1024", "2048", "007", "1e3", "9" * 18, "9" * 19,
          "f16", "bf16", "f32", "f64", "add", "relu", "silu", "gelu_tanh", "tanh", "", "a=b", "\u00e9", "\t1", "2",
          "4", "8", "3", "A.b-c_d", "!", "mfma_f32_32x32x8_f16", "row", "col"]


@st.composite
def kv_texts(draw: st.DrawFn) -> tuple[str, str]:
    """(family, text): shuffled valid texts with a few pairs replaced, dropped or added, or junk."""
    family = draw(st.sampled_from(sorted(SPECS)))
    pairs = (EW if family == "elementwise" else GEMM).split(" ")
    pairs = draw(st.permutations(pairs))
    for _ in range(draw(st.integers(0, 3))):
        edit = draw(st.integers(0, 3))
        index = draw(st.integers(0, len(pairs) - 1)) if pairs else 0
        made = f"{draw(st.sampled_from(KEYS))}={draw(st.sampled_from(VALUES))}"
        if edit == 0 and pairs:
            pairs[index] = made
        elif edit == 1 and pairs:
            del pairs[index]
        elif edit == 2:
            pairs.insert(index, made)
        else:
            pairs.insert(index, draw(st.sampled_from(["", "=", "bm", "=5", "vec==4", "x y"])))
    return family, " ".join(pairs)


@given(kv_texts())
@settings(max_examples=200, deadline=None)
def test_random_kv_texts(engine: Any, case: tuple[str, str]) -> None:
    family, kv = case
    assert _cpp_refusal(engine, family, kv) == _python_refusal(family, kv)
