"""Both engines agree on rocke.ir/1: printing, parsing, canonicalization, verification and every
error text, through the rocke_engine bindings of the installed wheel.

For any text, the "outcome" of an engine is either the parse error (type and message), or the
printed kernel, its canonical text and the verify verdict for no arch and for every arch. The
inputs: the sample kernels (and their C++ Builder twins), random well-typed kernels, kernels with
structural defects that reach each verifier rule, and malformed texts from the fuzz generator of
test_ir_fuzz.py.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_ir_fuzz import CORPUS, TYPES, _mutate
from test_ir_properties import _scramble, kernels
from test_ir_text import AXPY_TEXT, ERRORS

from rocke.arch import ARCH_NAMES, get_arch
from rocke.engine import native_engine
from rocke.ir import (
    KernelDef,
    Op,
    ParseError,
    Region,
    Value,
    canonicalize,
    parse_kernel,
    parse_type,
    print_kernel,
    verify,
)
from rocke.ir.adversarial import adversarial_inputs
from rocke.ir.samples import sample_kernels

pytestmark = pytest.mark.parity

ARCHS = (None, *ARCH_NAMES)
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def engine() -> Any:
    return native_engine()


def _verdict(check: Any) -> Any:
    try:
        check()
    except ValueError as exc:  # VerifyError, or an arch error
        return (type(exc).__name__, str(exc), getattr(exc, "rule", None))
    return "ok"


def python_outcome(text: str | bytes) -> tuple[Any, ...]:
    try:
        kernel = parse_kernel(text)
    except ParseError as exc:
        return ("ParseError", str(exc), exc.line, exc.col)
    verdicts = tuple(_verdict(lambda a=a: verify(kernel, get_arch(a) if a else None)) for a in ARCHS)
    return (print_kernel(kernel), print_kernel(canonicalize(kernel)), verdicts)


def cpp_outcome(engine: Any, text: str | bytes) -> tuple[Any, ...]:
    try:
        printed = engine.parse_print(text)
    except ValueError as exc:
        return (type(exc).__name__, str(exc), getattr(exc, "line", None), getattr(exc, "col", None))
    verdicts = tuple(_verdict(lambda a=a: engine.verify(text, a)) for a in ARCHS)
    return (printed, engine.canonicalize(text), verdicts)


def assert_same(engine: Any, text: str | bytes) -> tuple[Any, ...]:
    py = python_outcome(text)
    assert cpp_outcome(engine, text) == py
    return py


# ------------------------------------------------------------------ valid kernels
def test_cpp_builder_twins_print_the_python_samples(engine):
    python = {name: print_kernel(kernel) for name, kernel in sample_kernels().items()}
    cpp = dict(engine.sample_texts())
    assert list(cpp) == list(python)
    for name, text in python.items():
        assert cpp[name] == text, name


@pytest.mark.parametrize("name", list(sample_kernels()))
def test_samples_agree_on_every_arch(engine, name):
    text = print_kernel(sample_kernels()[name])
    outcome = assert_same(engine, text)
    assert outcome[0] == text and outcome[1] == text
    assert_same(engine, text.encode("ascii"))


@SETTINGS
@given(kernels(), st.integers(0, 2**32))
def test_random_kernels_agree_and_canonicalize_alike(engine, kernel, seed):
    canonical = print_kernel(kernel)
    outcome = assert_same(engine, canonical)
    assert outcome[0] == canonical
    _scramble(kernel, seed)  # new unique ids in another order: canonicalize restores the text
    scrambled = print_kernel(kernel)
    assert engine.parse_print(scrambled) == scrambled
    assert engine.canonicalize(scrambled) == canonical


# ------------------------------------------------------------------ defects the verifier finds
def _values_of(kernel: KernelDef) -> list[Value]:
    values = [p.value for p in kernel.params]
    for op in kernel.walk():
        values.extend(op.results)
        for region in op.regions:
            values.extend(region.args)
    return values


def _regions_of(kernel: KernelDef) -> list[Region]:
    regions = [kernel.body]
    for op in kernel.walk():
        regions.extend(op.regions)
    return regions


def _break(kernel: KernelDef, rng: random.Random) -> None:
    """One structural defect that the printer can still print (types, order, scopes, yields)."""
    while True:
        region = rng.choice([r for r in _regions_of(kernel) if r.ops])
        index = rng.randrange(len(region.ops))
        op = region.ops[index]
        nested = region is not kernel.body
        kind = rng.randrange(7)
        if kind == 0:  # retype a value
            rng.choice(_values_of(kernel)).type = parse_type(rng.choice(TYPES))
        elif kind == 1 and len(region.ops) > 1:  # swap two ops
            other = rng.randrange(len(region.ops))
            region.ops[index], region.ops[other] = region.ops[other], region.ops[index]
        elif kind == 2 and nested:  # drop an op (often the yield)
            del region.ops[index]
        elif kind == 3 and op.operands:  # use another value, maybe out of scope or later
            operands = list(op.operands)
            operands[rng.randrange(len(operands))] = rng.choice(_values_of(kernel))
            op.operands = tuple(operands)
        elif kind == 4 and nested and op.opcode != "scf.yield":  # move an op to the top of the body
            del region.ops[index]
            kernel.body.ops.insert(0, op)
        elif kind == 5 and op.opcode == "scf.yield" and op.operands:  # yield other values
            op.operands = tuple(rng.choice(_values_of(kernel)) for _ in op.operands)
        elif kind == 6 and rng.random() < 0.3:  # a yield in the middle of a region
            region.ops.insert(index, Op("scf.yield"))
        else:
            continue
        return


def _printable(kernel: KernelDef) -> str | None:
    try:
        return print_kernel(kernel)
    except (KeyError, AttributeError, IndexError, ValueError):
        return None


@SETTINGS
@given(kernels(), st.integers(0, 2**32))
def test_broken_kernels_get_the_same_verdicts(engine, kernel, seed):
    rng = random.Random(seed)
    for _ in range(rng.randint(1, 2)):
        _break(kernel, rng)
    text = _printable(kernel)
    if text is not None:
        assert_same(engine, text)


def _edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def _verifier_corpus() -> list[str]:
    """Texts that parse but break one verifier rule each (type, addrspace, placement, region, yield,
    attr, param, arch)."""
    s = {name: print_kernel(kernel) for name, kernel in sample_kernels().items()}
    if_head = "  scf.if %9 then {\n"
    lds_attrs = "{align = 16 : i32, count = 4 : i32}"
    return [
        _edit(AXPY_TEXT, "%6 : i32 = arith.mul", "%6 : i64 = arith.mul"),  # type: result type
        _edit(AXPY_TEXT, "arith.fma %2, %10, %11", "arith.fma %2, %10, %8"),  # type: operand types
        _edit(AXPY_TEXT, "mem.store %1, %8, %12", "mem.store %1, %8, %9"),  # type: stored value
        _edit(AXPY_TEXT, "mem.load %0, %8", "mem.load %0, %2"),  # type: index
        _edit(AXPY_TEXT, "readonly = true : bool, writeonly = false", "readonly = true : bool, writeonly = true"),
        _edit(AXPY_TEXT, "  } else {\n    scf.yield\n", "  } else {\n    scf.yield %2\n"),  # yield
        _edit(AXPY_TEXT, "    scf.yield\n  } else", "    scf.yield\n    %13 : i32 = gpu.lane_id\n  } else"),
        _edit(AXPY_TEXT, "    mem.store %1, %8, %12 {align = 0 : i32}\n", "    scf.yield\n"),  # placement
        _edit(AXPY_TEXT, if_head, "  scf.yield\n" + if_head),  # placement: a yield in the body
        _edit(AXPY_TEXT, if_head, if_head + "    %21 : ptr<f32, lds> = mem.lds_alloc " + lds_attrs + "\n"),
        _edit(s["vec_ops"], "vec.extract %18 {index = 3 : i32}", "vec.extract %18 {index = 7 : i32}"),  # attr
        _edit(s["buffer_copy"], "mem.store %3, %9, %21", "mem.store %2, %9, %21"),  # addrspace: constant
        _edit(s["buffer_copy"], "mem.load %16, %18", "mem.load %1, %18"),
        _edit(s["block_reduce"], "mem.lds_load %3, %38", "mem.load %3, %38"),  # addrspace: lds
        _edit(s["block_reduce"], "mem.lds_store %3, %25, %23", "mem.lds_store %0, %25, %23"),
        _edit(s["block_reduce"], "mem.atomic_add_f32 %1, %42, %37", "mem.atomic_add_f32 %1, %42, %24"),
        _edit(s["gemm_mfma"], "mfma_f32_16x16x16_f16", "mfma_f32_32x32x8_f16"),  # arch: signature
        _edit(s["gemm_wmma"], "wmma_f32_16x16x16_f16_gfx11", "wmma_f32_16x16x16_f16_gfx12"),
        _edit(s["gemm_wmma"], "wmma_f32_16x16x16_f16_gfx11", "mma_nonexistent"),
        _edit(s["nested_control"], 'body(%33 "h" : i32', 'body(%33 "h" : i64'),  # region arguments
        _edit(s["nested_control"], '%45 "acc" : f32 = scf.for', '%45 "acc" : i32 = scf.for'),
    ]


@pytest.mark.parametrize("index", range(len(_verifier_corpus())))
def test_verifier_rules_reached_from_text_agree(engine, index):
    text = _verifier_corpus()[index]
    outcome = assert_same(engine, text)
    assert outcome[0] != "ParseError" and any(v != "ok" for v in outcome[2]), outcome


# ------------------------------------------------------------------ malformed text
@pytest.mark.parametrize(("text", "message"), ERRORS)
def test_parse_errors_of_the_python_suite_agree(engine, text, message):
    assert cpp_outcome(engine, text) == python_outcome(text)
    assert cpp_outcome(engine, text)[:2] == ("ParseError", message)


def test_seeded_mutations_agree(engine):
    rng = random.Random(20240611)
    for _ in range(600):
        assert_same(engine, _mutate(rng, rng.choice(CORPUS)))


@SETTINGS
@given(st.sampled_from(CORPUS), st.integers(0, 2**64))
def test_hypothesis_mutations_agree(engine, text, seed):
    assert_same(engine, _mutate(random.Random(seed), text))


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_agree(engine, data):
    assert_same(engine, data)
    assert_same(engine, b"rocke.ir/1\n" + data)
    assert_same(engine, data.decode("latin-1"))


HOSTILE = [
    "scf.if %9 then {\n" * 5000,
    "  %4 : vec<" + "vec<" * 5000 + "\n",
    "  %4 : ptr<" * 3000 + "\n",
    "  %4 : i32 = arith.constant {value = " + "9" * 5000 + " : i32}\n",
    "  %4 : i32 = arith.constant {value = -" + "9" * 5000 + " : i32}\n",
    "  %4 : i64 = arith.constant {value = 99999999999999999999 : i64}\n",
    "  %4 : i64 = arith.constant {value = -9223372036854775809 : i64}\n",
    "  %4 : f32 = arith.constant {value = 18446744073709551615 : f32}\n",
    "  %" + "9" * 5000 + " : i32 = gpu.lane_id\n",
    "  %4 : i32 = gpu.lane_id {" + "a = 1 : i32, " * 3000 + "}\n",
    "  %4 : vec<f16x" + "9" * 400 + "> = gpu.lane_id\n",
    '  %4 "' + "a" * 100_000 + '" : i32 = gpu.lane_id\n',
    "  " + "x" * 100_000 + "\n",
    "  %4 : i32 = mystery.op\n",
    "  %4 : f128 = gpu.lane_id\n",
    "  %4 : i32 = gpu.lane_id {bogus = 1 : i32}\n",
    "  %4 : i32 = gpu.lane_id\n  %5 : i32 = xlane.shuffle_xor %4 {mask = \"\u20ac\" : str}\n",
    "  %4 : i32 = gpu.lane_id\n\ud800",
]


@pytest.mark.parametrize("index", range(len(HOSTILE)))
def test_hostile_inputs_agree(engine, index):
    head, tail = AXPY_TEXT.split("body {\n", 1)
    assert_same(engine, head + "body {\n" + HOSTILE[index] + tail)


@pytest.mark.parametrize("version", ["rocke.ir/0", "rocke.ir/1.1", "rocke.ir/", "ROCKE.IR/1", "rocke.ir/1\x00"])
def test_unknown_versions_agree(engine, version):
    assert_same(engine, AXPY_TEXT.replace("rocke.ir/1", version, 1))


def _type_outcome(fn: Any) -> tuple[str, str]:
    try:
        return ("type", str(fn()))
    except ValueError as exc:
        return (type(exc).__name__, str(exc))


@pytest.mark.parametrize(
    "text",
    [*TYPES, "vec<i1x4>", "vec<f16x1>", "vec<f16x65>", "vec<f16x04>", "vec<f16 x 4>", "ptr<i1, global>",
     "ptr<rsrc, lds>", "ptr<ptr<f32, lds>, lds>", "ptr<f32, shared>", "ptr<f32 global>", "vec<f16x4>>", "f64",
     "", " i32", "i32 ", "i32\n", "vec<", "ptr<vec<f32x2>, private>", "rsrc<", "\u00e9"],
)  # fmt: skip
def test_type_texts_agree(engine, text):
    assert _type_outcome(lambda: engine.parse_type(text)) == _type_outcome(lambda: parse_type(text))


def test_wrong_argument_types_agree(engine):
    with pytest.raises(TypeError, match="parse_kernel: expected str or bytes, got int") as py_info:
        parse_kernel(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError) as cpp_info:
        engine.parse_print(3)
    assert str(cpp_info.value) == str(py_info.value)


@pytest.mark.parametrize("name", sorted(adversarial_inputs(64)))
def test_adversarial_inputs_agree(engine, name):
    """The hostile inputs of rocke.ir.adversarial (shared with the sanitizer corpus and the bench)."""
    assert_same(engine, adversarial_inputs(1 << 16)[name])


def _seconds(fn: Any) -> float:
    """Best of five in this thread's CPU time: a loaded machine deschedules the process for tens of
    milliseconds, which wall time would charge to the parser."""
    best = float("inf")
    for _ in range(5):
        start = time.thread_time()
        try:
            fn()
        except ValueError:
            pass
        best = min(best, time.thread_time() - start)
    return best


@pytest.mark.parametrize("name", ["trailing_spaces", "spaces_then_char", "blank_lines", "unterminated_string",
                                  "type_spaces", "open_braces"])
def test_both_parsers_are_linear(engine, name):
    """8x the input costs far less than 64x the time (a quadratic parser); once 16,000 trailing
    spaces took 27 s in Python."""
    small, large = adversarial_inputs(1 << 15)[name], adversarial_inputs(1 << 18)[name]
    for parse in (parse_kernel, engine.parse_print):
        ratio = _seconds(lambda p=parse: p(large)) / max(_seconds(lambda p=parse: p(small)), 1e-4)
        assert ratio < 24, f"{name}: {parse.__name__}: 8x the input took {ratio:.1f}x the time"
    with pytest.raises(ParseError):
        parse_type("f32" + " " * 16000 + "x")
    start = time.thread_time()
    with pytest.raises(ParseError):
        parse_kernel("rocke.ir/1\n" + " " * 16000)
    assert time.thread_time() - start < 1.0
