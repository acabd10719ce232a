"""The C++ twin of the elementwise family builds the Python builder's kernels byte for byte.

For every line of elementwise.cfg, random specs on every arch, and every refusal (spec rules, the
arch rule, unknown arches): Python ``print_kernel(build(ElementwiseSpec.from_kv(kv), arch))`` equals
``rocke_engine.build_family("elementwise", kv, arch)``, or both refuse with the same exception kind
and text. Needs the installed wheel.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_family_specs import EW_ARCH_REFUSALS, EW_SPEC_REFUSALS

from rocke.arch import ARCH_NAMES
from rocke.engine import native_engine
from rocke.families.configs import load_configs
from rocke.families.elementwise import OPS, ElementwiseSpec, build
from rocke.ir import print_kernel

pytestmark = pytest.mark.parity

FAMILY = "elementwise"
BASE = "block=256 dtype=f16 op=add vec=8"
CONFIGS = load_configs(FAMILY, ElementwiseSpec)


@pytest.fixture(scope="module")
def engine() -> Any:
    engine = native_engine()
    if FAMILY not in engine.family_names():
        pytest.fail("the installed rocke_engine has no C++ elementwise builder")
    return engine


def _with(base: str, **changes: object) -> str:
    pairs = dict(pair.split("=", 1) for pair in base.split(" "))
    pairs.update({key: str(value) for key, value in changes.items()})
    return " ".join(f"{key}={pairs[key]}" for key in sorted(pairs))


def _outcome(run: Any) -> tuple[str, str]:
    """("ok", IR text) or (kind, message) of a refusal; kind says which built-ins it is."""
    try:
        return "ok", run()
    except (KeyError, ValueError) as exc:
        kind = "+".join(name for name, cls in (("KeyError", KeyError), ("ValueError", ValueError))
                        if isinstance(exc, cls))
        return kind, str(exc.args[0]) if exc.args else ""


def _python(kv: str, arch: str) -> tuple[str, str]:
    return _outcome(lambda: print_kernel(build(ElementwiseSpec.from_kv(kv), arch)))


def _cpp(engine: Any, kv: str, arch: str) -> tuple[str, str]:
    return _outcome(lambda: engine.build_family(FAMILY, kv, arch))


def _same(engine: Any, kv: str, arch: str) -> tuple[str, str]:
    """The common outcome of both engines; on a difference in built IR, name the first differing line."""
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


@pytest.mark.parametrize(("changes", "message"), EW_SPEC_REFUSALS)
def test_spec_rule_refusals(engine: Any, changes: dict, message: str) -> None:
    assert _same(engine, _with(BASE, **changes), "gfx1100") == ("ValueError", message)


@pytest.mark.parametrize(("changes", "arch", "message"), EW_ARCH_REFUSALS)
def test_arch_rule_refusals(engine: Any, changes: dict, arch: str, message: str) -> None:
    assert _same(engine, _with(BASE, **changes), arch) == ("ValueError", message)


@pytest.mark.parametrize("arch", ["gfx90a", "", "GFX942", "gfx942 "])
def test_unknown_arch(engine: Any, arch: str) -> None:
    status, message = _same(engine, BASE, arch)
    assert status == "KeyError+ValueError" and message.startswith("unknown arch")


def test_spec_errors_come_before_the_arch(engine: Any) -> None:
    assert _same(engine, _with(BASE, block=48), "gfx90a")[1].startswith("elementwise: block=48")


@st.composite
def elementwise_cases(draw: st.DrawFn) -> tuple[str, str]:
    """Mostly valid specs on every arch, some breaking a rule."""
    dtype = draw(st.sampled_from(["f16", "bf16", "f32"]))
    vec = draw(st.sampled_from([1, 2, 4, 8] if draw(st.integers(0, 9)) else [3, 16, 0]))
    block = 32 * draw(st.integers(1, 32)) if draw(st.integers(0, 9)) else draw(st.integers(-64, 2048))
    kv = _with(BASE, block=block, dtype=dtype, op=draw(st.sampled_from(OPS)), vec=vec)
    return kv, draw(st.sampled_from(ARCH_NAMES))


@given(elementwise_cases())
@settings(max_examples=120, deadline=None)
def test_random_specs(engine: Any, case: tuple[str, str]) -> None:
    _same(engine, *case)
