"""The C++ twin of the gemm family builds the Python builder's kernels byte for byte.

For every line of gemm.cfg, random specs, and every refusal (kv parsing, spec rules, arch rules):
Python ``print_kernel(build(GemmSpec.from_kv(kv), arch))`` equals ``rocke_engine.build_family("gemm",
kv, arch)``, or both refuse with the same exception kind and text. Needs the installed wheel.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rocke.arch import ARCH_NAMES, MMA_OPS
from rocke.engine import native_engine
from rocke.families.configs import load_configs
from rocke.families.gemm import GemmSpec, build
from rocke.ir import print_kernel

pytestmark = pytest.mark.parity

BASE = ("a_dtype=f16 a_layout=row b_dtype=f16 b_layout=row bias=0 bk=32 bm=64 bn=64 c_dtype=f32 double_buffer=0 "
        "lds_pad=0 op_id=mfma_f32_32x32x8_f16 wm=2 wn=2")
CONFIGS = load_configs("gemm", GemmSpec)


@pytest.fixture(scope="module")
def engine() -> Any:
    engine = native_engine()
    if "gemm" not in engine.family_names():
        pytest.fail("the installed rocke_engine has no C++ gemm builder")
    return engine


def _with(base: str, **changes: object) -> str:
    pairs = dict(pair.split("=", 1) for pair in base.split(" "))
    pairs.update({key: str(value) for key, value in changes.items()})
    return " ".join(f"{key}={pairs[key]}" for key in sorted(pairs))


def _outcome(run: Any) -> tuple[str, str]:
    """("ok", IR text) or (kind, message) of a refusal; kind says which built-in it is."""
    try:
        return "ok", run()
    except (KeyError, ValueError) as exc:
        kind = "+".join(name for name, cls in (("KeyError", KeyError), ("ValueError", ValueError))
                        if isinstance(exc, cls))
        return kind, str(exc.args[0]) if exc.args else ""


def _python(kv: str, arch: str) -> tuple[str, str]:
    return _outcome(lambda: print_kernel(build(GemmSpec.from_kv(kv), arch)))


def _cpp(engine: Any, kv: str, arch: str) -> tuple[str, str]:
    return _outcome(lambda: engine.build_family("gemm", kv, arch))


def _same(engine: Any, kv: str, arch: str) -> tuple[str, str]:
    want = _python(kv, arch)
    got = _cpp(engine, kv, arch)
    if got != want and got[0] == want[0] == "ok":
        py_lines, cpp_lines = want[1].splitlines(), got[1].splitlines()
        first = next((i for i, (p, c) in enumerate(zip(py_lines, cpp_lines, strict=False)) if p != c),
                     min(len(py_lines), len(cpp_lines)))
        pytest.fail(f"{arch} {kv}: first difference at line {first + 1}:\n"
                    f"  python: {py_lines[first] if first < len(py_lines) else '<end>'}\n"
                    f"  c++:    {cpp_lines[first] if first < len(cpp_lines) else '<end>'}")
    assert got == want, f"{arch} {kv}"
    return want


@pytest.mark.parametrize("config", CONFIGS, ids=[f"line{c.lineno}" for c in CONFIGS])
def test_config_lines(engine: Any, config: Any) -> None:
    status, _ = _same(engine, config.kv, config.arch)
    assert (status != "ok") == config.refuse


def test_config_file_builds_and_refuses() -> None:
    assert any(c.refuse for c in CONFIGS) and any(not c.refuse for c in CONFIGS)


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
    _with(BASE, bm="0x40"),
    _with(BASE, bm="064"),
    _with(BASE, bm="+64"),
    _with(BASE, bm="1234567890123456789"),
    _with(BASE, bm="-0"),
    _with(BASE, bias="2"),
    _with(BASE, bias="true"),
    _with(BASE, double_buffer=""),
    _with(BASE, op_id="mfma f32"),
    _with(BASE, op_id="mfma/f32"),
    _with(BASE, a_dtype=""),
]

M32 = "mfma_f32_32x32x8_f16"
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
def test_kv_parsing_refusals(engine: Any, kv: str) -> None:
    status, message = _same(engine, kv, "gfx942")
    assert status == "ValueError" and message.startswith("gemm: ")


@pytest.mark.parametrize("changes", SPEC_RULES)
def test_spec_rule_refusals(engine: Any, changes: dict) -> None:
    status, message = _same(engine, _with(BASE, **changes), "gfx942")
    assert status == "ValueError" and message.startswith("gemm: ")


@pytest.mark.parametrize(("changes", "arch"), ARCH_RULES)
def test_arch_rule_refusals(engine: Any, changes: dict, arch: str) -> None:
    _same(engine, _with(BASE, **changes), arch)


def test_spec_errors_come_before_the_arch(engine: Any) -> None:
    status, message = _same(engine, _with(BASE, bm=48), "gfx90a")
    assert status == "ValueError" and message.startswith("gemm: bm=48")


@st.composite
def gemm_cases(draw: st.DrawFn) -> tuple[str, str]:
    op = draw(st.sampled_from(MMA_OPS))
    wm, wn = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    kv = _with(BASE, a_dtype=op.a_dtype, b_dtype=op.b_dtype, op_id=op.id, wm=wm, wn=wn,
               a_layout=draw(st.sampled_from(["row", "col"])), b_layout=draw(st.sampled_from(["row", "col"])),
               bias=int(draw(st.booleans())), double_buffer=int(draw(st.booleans())),
               bk=op.k * draw(st.integers(1, 4)), bm=wm * op.m * draw(st.integers(1, 2)),
               bn=wn * op.n * draw(st.integers(1, 2)), c_dtype=draw(st.sampled_from(["f16", "bf16", "f32"])),
               lds_pad=draw(st.integers(0, 9)))
    arch = draw(st.sampled_from(op.archs)) if draw(st.integers(0, 4)) else draw(st.sampled_from(ARCH_NAMES))
    return kv, arch


@given(gemm_cases())
@settings(max_examples=30, deadline=None)
def test_random_specs(engine: Any, case: tuple[str, str]) -> None:
    _same(engine, *case)
