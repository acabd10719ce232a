"""Both engines lower alike: `rocke.lower.lower(kernel)` == `rocke_engine.lower(print_kernel(kernel))`,
byte for byte, and every refusal has the same exception class, attributes and message.

Inputs: every sample kernel and the op-coverage corpus of test_lower_llvm.py on every arch (legal
or not) in both flavors, the refusals of test_lower_module.py, unknown and non-string arches and
flavors, random well-typed kernels (hypothesis), and mutated sample texts (the fuzz generator of
test_ir_fuzz.py), which reach the parser's, the verifier's and the lowerer's errors. Runs against
the installed wheel.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_ir_fuzz import _mutate
from test_ir_properties import kernels
from test_lower_llvm import corpus

from rocke.arch import ARCH_NAMES, FLAVOR_NAMES, INTRINSICS, UnknownArchError, get_arch, get_flavor, intrinsic_def
from rocke.engine import lower as engine_lower
from rocke.engine import native_engine
from rocke.ir import Builder, KernelDef, ParseError, VerifyError, f16, f32, i32, parse_kernel, print_kernel, ptr, vec
from rocke.ir.samples import sample_kernels
from rocke.lower import LowerError, lower
from rocke.lower.dispatch import lower_op
from rocke.lower.emitter import FunctionEmitter

pytestmark = pytest.mark.parity

FLAVORS = ("llvm20", "llvm22")
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def engine() -> Any:
    return native_engine()


def _error(exc: Exception) -> tuple[Any, ...]:
    """An exception as comparable data: class, message and the attributes its class carries."""
    extra = tuple(getattr(exc, name, None) for name in ("where", "what", "rule", "line", "col"))
    return (type(exc).__module__, type(exc).__name__, str(exc), extra)


def python_outcome(kernel: KernelDef, arch: Any, flavor: Any) -> Any:
    try:
        return lower(kernel, arch=arch, flavor=flavor)
    except (ValueError, KeyError) as exc:
        return _error(exc)


def cpp_outcome(engine: Any, text: str, arch: Any, flavor: Any) -> Any:
    try:
        return engine.lower(text, arch, flavor)
    except (ValueError, KeyError) as exc:
        return _error(exc)


def assert_same(engine: Any, kernel: KernelDef, arch: Any, flavor: Any) -> Any:
    py = python_outcome(kernel, arch, flavor)
    assert cpp_outcome(engine, print_kernel(kernel), arch, flavor) == py
    return py


def _all_kernels() -> dict[str, KernelDef]:
    return {**sample_kernels(), **corpus()}


KERNEL_NAMES = list(_all_kernels())


# ------------------------------------------------------------------ every kernel, arch and flavor
@pytest.mark.parametrize("name", KERNEL_NAMES)
def test_every_kernel_lowers_alike_on_every_arch_and_flavor(engine: Any, name: str) -> None:
    kernel = _all_kernels()[name]
    lowered = 0
    for arch in ARCH_NAMES:
        for flavor in FLAVORS:
            outcome = assert_same(engine, kernel, arch, flavor)
            lowered += isinstance(outcome, str)
    assert lowered, f"{name} lowers nowhere"


def test_outcomes_cover_text_and_verifier_refusals(engine: Any) -> None:
    kinds = set()
    for kernel in sample_kernels().values():
        for arch in ARCH_NAMES:
            outcome = python_outcome(kernel, arch, "llvm22")
            kinds.add("ll" if isinstance(outcome, str) else outcome[1])
    assert kinds == {"ll", "VerifyError"}


# ------------------------------------------------------------------ refusals
def _big_lds() -> KernelDef:
    b = Builder("big", max_workgroup_size=64)
    big = b.lds_alloc(f32, 40960)  # 163840 bytes: gfx950's limit, above gfx942's
    b.lds_store(big, b.thread_id_x(), b.const(0.0, f32))
    return b.finish()


def _buffer(ty: Any) -> KernelDef:
    b = Builder("buf", max_workgroup_size=64)
    src = b.param("src", ptr(i32, "global"))
    r = b.make_rsrc(src, b.const(64, i32))
    b.buffer_store(r, b.const(16, i32), b.buffer_load(r, b.const(0, i32), ty, name="x"))
    return b.finish()


def _shuffle(mask: int) -> KernelDef:
    b = Builder("shuffle", max_workgroup_size=64)
    p = b.param("p", ptr(f32, "global"))
    tid = b.thread_id_x()
    b.store(p, tid, b.shuffle_xor(b.load(p, tid), mask))
    return b.finish()


REFUSALS = {
    "big_lds": _big_lds(),
    "buffer_v3f16": _buffer(vec(f16, 3)),
    "buffer_v8f32": _buffer(vec(f32, 8)),
    "shuffle_32": _shuffle(32),
    "shuffle_63": _shuffle(63),
}


@pytest.mark.parametrize("name", list(REFUSALS))
def test_lowerer_refusals_are_identical(engine: Any, name: str) -> None:
    refused = 0
    for arch in ARCH_NAMES:
        for flavor in FLAVORS:
            outcome = assert_same(engine, REFUSALS[name], arch, flavor)
            refused += not isinstance(outcome, str)
    assert refused


def test_lower_error_is_the_python_class_with_where_and_what(engine: Any) -> None:
    with pytest.raises(LowerError) as info:
        engine.lower(print_kernel(_big_lds()), "gfx942", "llvm22")
    assert info.value.where == "kernel @big"
    assert info.value.what == "allocates 163840 bytes of LDS; gfx942 allows 65536 per workgroup"
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("arch", "flavor"),
    [("gfx90a", "llvm22"), ("gfx90a", "llvm21"), ("gfx942", "llvm21"), ("gfx942", ""), ("", "llvm22"),
     ("GFX942", "LLVM22"), ("gfx942", 22), (942, "llvm22"), (942, None), ("gfx942\u00e9", "llvm22"),
     ("gfx942", "llvm22\u00e9")],
)
def test_unknown_or_malformed_arch_and_flavor(engine: Any, arch: Any, flavor: Any) -> None:
    kernel = sample_kernels()["axpy"]
    outcome = assert_same(engine, kernel, arch, flavor)
    assert not isinstance(outcome, str)


def test_unknown_arch_is_the_rocke_arch_error(engine: Any) -> None:
    with pytest.raises(UnknownArchError):
        engine.lower(print_kernel(sample_kernels()["axpy"]), "gfx90a", "llvm22")
    with pytest.raises(VerifyError) as info:
        engine.lower(print_kernel(sample_kernels()["gemm_mfma"]), "gfx1100", "llvm22")
    assert info.value.rule == "arch"


def _python_declare(arch: str, flavor: str, name: str, elem: str, lanes: int) -> Any:
    em = FunctionEmitter(get_arch(arch), get_flavor(flavor), {}, lower_op)
    try:
        return em.declare(intrinsic_def(name), elem, lanes).text
    except (ValueError, KeyError) as exc:
        return _error(exc)


def _cpp_declare(engine: Any, arch: str, flavor: str, name: str, elem: str, lanes: int) -> Any:
    try:
        return engine._declare(arch, flavor, name, elem, lanes)
    except (ValueError, KeyError) as exc:
        return _error(exc)


def test_every_declaration_and_arch_domain_refusal_is_identical(engine: Any) -> None:
    """FunctionEmitter.declare for every row of the intrinsic table (overloads on every element,
    scalar and vector, and on a type outside their class) on every arch and flavor: the
    declaration text, or the arch-domain refusal (the MMA intrinsics off their archs, gfx12's
    split waits elsewhere) with the same text."""
    refusals = 0
    for row in INTRINSICS:
        shapes = [("", 0)] if not row.overload else [(e, n) for e in ("f16", "bf16", "f32", "i32") for n in (0, 4)]
        for elem, lanes in shapes:
            for arch in ARCH_NAMES:
                for flavor in FLAVORS:
                    py = _python_declare(arch, flavor, row.name, elem, lanes)
                    assert _cpp_declare(engine, arch, flavor, row.name, elem, lanes) == py, (row.name, arch)
                    refusals += isinstance(py, tuple) and py[1] == "LowerError"
    assert refusals > 50


def test_flavor_names_come_from_the_one_table(engine: Any) -> None:
    assert engine.flavor_names() == FLAVOR_NAMES


# ------------------------------------------------------------------ random and mutated kernels
@SETTINGS
@given(kernels(), st.sampled_from(ARCH_NAMES), st.sampled_from(FLAVORS))
def test_random_kernels_lower_alike(engine: Any, kernel: KernelDef, arch: str, flavor: str) -> None:
    assert_same(engine, kernel, arch, flavor)


def _python_text_outcome(text: str, arch: str, flavor: str) -> Any:
    try:
        kernel = parse_kernel(text)
    except ParseError as exc:
        return _error(exc)
    return python_outcome(kernel, arch, flavor)


def test_mutated_samples_parse_verify_and_lower_alike(engine: Any) -> None:
    rng = random.Random(20240601)
    texts = [print_kernel(k) for k in sample_kernels().values()]
    kinds: dict[str, int] = {}
    for n in range(600):
        text = _mutate(rng, texts[n % len(texts)])
        arch = ARCH_NAMES[n % len(ARCH_NAMES)]
        flavor = FLAVORS[n // len(ARCH_NAMES) % 2]
        py = _python_text_outcome(text, arch, flavor)
        assert cpp_outcome(engine, text, arch, flavor) == py, text
        kind = "ll" if isinstance(py, str) else py[1]
        kinds[kind] = kinds.get(kind, 0) + 1
    assert {"ll", "ParseError", "VerifyError"} <= set(kinds), kinds


# ------------------------------------------------------------------ the engine switch
@pytest.mark.parametrize("name", ["axpy", "gemm_wmma", "buffer_copy"])
def test_engine_switch_cpp_and_both(name: str) -> None:
    kernel = sample_kernels()[name]
    arch = "gfx1100" if name == "gemm_wmma" else "gfx942"
    for flavor in FLAVORS:
        python = engine_lower(kernel, arch=arch, flavor=flavor, engine="python")
        assert engine_lower(kernel, arch=arch, flavor=flavor, engine="cpp") == python
        assert engine_lower(kernel, arch=arch, flavor=flavor, engine="both") == python
