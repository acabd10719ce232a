"""Every string argument of every rocke_engine binding, against the Python API it twins: the same
result, or the same exception type with the same text (NUL bytes, lone surrogates, non-ASCII,
very long strings, bytes where str is expected).

A NUL once cut the C++ message short, a lone surrogate became UnicodeDecodeError or "incompatible
function arguments", and parse_type accepted bytes that Python refuses.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
import rocke_engine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rocke.arch import eval_layout_expr, get_arch
from rocke.families import get_family
from rocke.gates.string_fuzz import outcome, variants
from rocke.ir import canonicalize, parse_kernel, parse_type, print_kernel, verify
from rocke.ir.samples import sample_kernels
from rocke.lower import lower

TEXT = print_kernel(sample_kernels()["axpy"])
KV = "block=64 dtype=f16 op=silu vec=4"


def _arch_facts(name: Any) -> dict[str, Any]:
    arch = get_arch(name)
    return {f.name: getattr(arch, f.name) for f in dataclasses.fields(arch)}


def _mma_signature(arch: Any, op_id: Any) -> tuple[str, ...] | None:
    signature = get_arch(arch).mma_signature(op_id)
    return None if signature is None else tuple(t.text for t in signature)


def _build_family(name: Any, kv: Any, arch: Any) -> str:
    family = get_family(name, cpp_engine="rocke_engine")  # the families rocke_engine serves
    return print_kernel(family.build(family.spec.from_kv(kv), arch))


# binding -> (Python twin, valid arguments, indexes of the text arguments, which take bytes too)
BINDINGS: dict[str, tuple[Any, tuple[Any, ...], tuple[int, ...]]] = {
    "arch_facts": (_arch_facts, ("gfx942",), ()),
    "has_feature": (lambda arch, feature: get_arch(arch).has_feature(feature), ("gfx942", "mfma"), ()),
    "mma_signature": (_mma_signature, ("gfx942", "mfma_f32_16x16x16_f16"), ()),
    "eval_layout_expr": (lambda source, lane, slot: eval_layout_expr(source, lane=lane, slot=slot),
                         ("lane % 16 + 4 * slot", 3, 1), ()),
    "parse_type": (lambda text: parse_type(text).text, ("ptr<vec<f16x4>, lds>",), ()),
    "parse_print": (lambda text: print_kernel(parse_kernel(text)), (TEXT,), (0,)),
    "canonicalize": (lambda text: print_kernel(canonicalize(parse_kernel(text))), (TEXT,), (0,)),
    "verify": (lambda text, arch: verify(parse_kernel(text), arch), (TEXT, "gfx942"), (0,)),
    "lower": (lambda text, arch, flavor: lower(parse_kernel(text), arch=arch, flavor=flavor),
              (TEXT, "gfx942", "llvm22"), (0,)),
    "build_family": (_build_family, ("elementwise", KV, "gfx942"), ()),
}
STRING_ARGS = [(name, index) for name, (_, valid, _) in BINDINGS.items()
               for index, value in enumerate(valid) if isinstance(value, str)]

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_same(name: str, args: tuple[Any, ...]) -> None:
    twin = BINDINGS[name][0]
    cpp = getattr(rocke_engine, name)
    assert outcome(cpp, *args) == outcome(twin, *args), f"{name}{args!r}"[:300]


@pytest.mark.parametrize(("name", "index"), STRING_ARGS)
@SETTINGS
@given(data=st.data())
def test_every_string_argument_agrees(name, index, data):
    _, valid, _ = BINDINGS[name]
    value = data.draw(variants(valid[index]))
    args = list(valid)
    args[index] = value
    assert_same(name, tuple(args))


@pytest.mark.parametrize(("name", "index"), STRING_ARGS)
def test_bytes_for_a_string_argument_agree(name, index):
    """Text arguments take bytes as parse_kernel does; every other argument wants a str."""
    _, valid, _ = BINDINGS[name]
    args = list(valid)
    args[index] = valid[index].encode()
    assert_same(name, tuple(args))


@pytest.mark.parametrize("value", ["llvm\x0022", "llvm22\x00", "\udcff", "\u00e9", "x" * 5000])
def test_known_cut_messages_are_whole(value):
    assert_same("lower", (TEXT, "gfx942", value))
    assert_same("build_family", ("elementwise", KV.replace("silu", "silu" + value), "gfx942"))
    assert_same("parse_type", ("f32" + value,))


@pytest.mark.parametrize("arch", [None, 42, b"gfx942", "gfx\x00942", "\udcff"])
def test_verify_arch_argument_agrees(arch):
    assert_same("verify", (TEXT, arch))
