"""Fuzzing the parser: whatever the text, parse_kernel returns a kernel or raises ParseError.

Texts that do parse must print, re-parse to the same text, canonicalize, and verify or fail with
VerifyError only.
"""

from __future__ import annotations

import random
import re
import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rocke.ir import ParseError, VerifyError, canonicalize, parse_kernel, print_kernel, verify
from rocke.ir.adversarial import adversarial_inputs
from rocke.ir.samples import sample_kernels

CORPUS = [print_kernel(k) for k in sample_kernels().values()]
TOKENS = [
    "{",
    "}",
    "(",
    ")",
    "<",
    ">",
    ",",
    ":",
    "=",
    "%",
    "@",
    '"',
    "\\",
    "\n",
    "\r",
    "\t",
    "\x00",
    "\xff",
    "\u20ac",
    " ",
    "-",
    "0x",
    "0x7FF8000000000001",
    "0xFFFFFFFFFFFFFFFF",
    "%0",
    "%999999999",
    "%1000000000",
    "%007",
    "99999999999999999999",
    "999999999999999999999",
    "-9223372036854775809",
    "1e10",
    "vec<",
    "ptr<",
    "vec<f16x4>",
    "ptr<f16, global>",
    "ptr<ptr<",
    "rsrc",
    "f64",
    "i128",
    "bogus.op",
    "arith.add",
    "scf.if %1 then {",
    "scf.yield",
    "} else {",
    "body(%7 : i32) {",
    "rocke.ir/2",
    "kernel",
    "param",
    "body",
    "true",
    "false",
    "{value = 1 : i32}",
    "{lanes = 70000 : i32}",
    "then",
    "else",
    "@k",
    "@",
    '"name"',
    '"a b"',
    "\n}\n",
]
TYPES = [
    "i1",
    "i8",
    "i16",
    "i32",
    "i64",
    "f16",
    "bf16",
    "f32",
    "rsrc",
    "vec<f16x4>",
    "vec<f32x4>",
    "vec<i32x2>",
    "vec<f16x16>",
    "vec<f32x8>",
    "ptr<f32, global>",
    "ptr<f32, lds>",
    "ptr<f16, constant>",
    "ptr<i32, private>",
]
_ID = re.compile(r"%[0-9]+")
_TYPE = re.compile(r"\b(?:i1|i8|i16|i32|i64|f16|bf16|f32|rsrc|vec<[a-z0-9]+>|ptr<[^>]*>)(?= |,|\)|\n|>)")


def _check(text) -> None:
    try:
        kernel = parse_kernel(text)
    except ParseError as exc:
        assert exc.line >= 1 and exc.col >= 1
        assert str(exc).startswith(f"line {exc.line}, col {exc.col}: ")
        assert str(exc).isascii() and "\n" not in str(exc)
        return
    printed = print_kernel(kernel)
    assert print_kernel(parse_kernel(printed)) == printed
    canonical = print_kernel(canonicalize(kernel))
    assert print_kernel(canonicalize(parse_kernel(canonical))) == canonical
    try:
        verify(kernel)
    except VerifyError:
        pass


def _retarget(rng: random.Random, text: str, pattern: re.Pattern[str], choices: list[str]) -> str:
    """Replace one match of pattern by one of choices: keeps the text parseable more often."""
    matches = list(pattern.finditer(text))
    if not matches or not choices:
        return text
    m = rng.choice(matches)
    return text[: m.start()] + rng.choice(choices) + text[m.end() :]


def _mutate(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 4)):
        choice = rng.randrange(8)
        pos = rng.randrange(len(text) + 1)
        if choice == 6:  # use another value id
            text = _retarget(rng, text, _ID, sorted(set(_ID.findall(text))))
        elif choice == 7:  # change a type
            text = _retarget(rng, text, _TYPE, TYPES)
        elif choice == 0:  # replace one character by any of 0..255 or a token
            text = text[:pos] + rng.choice([chr(rng.randrange(256)), rng.choice(TOKENS)]) + text[pos + 1 :]
        elif choice == 1:  # delete a span
            text = text[:pos] + text[pos + rng.randint(1, 40) :]
        elif choice == 2:  # insert a token
            text = text[:pos] + rng.choice(TOKENS) + text[pos:]
        elif choice == 3:  # truncate
            text = text[:pos]
        elif choice == 4:  # duplicate or drop a line
            lines = text.split("\n")
            i = rng.randrange(len(lines))
            if rng.random() < 0.5:
                lines.insert(i, lines[i])
            else:
                del lines[i]
            text = "\n".join(lines)
        else:  # swap two lines
            lines = text.split("\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text


def test_seeded_mutations_only_raise_parse_error():
    rng = random.Random(20240611)
    for _ in range(1500):
        _check(_mutate(rng, rng.choice(CORPUS)))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CORPUS), st.integers(0, 2**64))
def test_hypothesis_mutations_only_raise_parse_error(text, seed):
    _check(_mutate(random.Random(seed), text))


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_only_raise_parse_error(data):
    _check(data)
    _check(b"rocke.ir/1\n" + data)
    _check(data.decode("latin-1"))


@pytest.mark.parametrize(
    "snippet",
    [
        "scf.if %9 then {\n" * 5000,
        "  %4 : vec<" + "vec<" * 5000 + "\n",
        "  %4 : ptr<" * 3000 + "\n",
        "  %4 : i32 = arith.constant {value = " + "9" * 5000 + " : i32}\n",
        "  %4 : i32 = arith.constant {value = -" + "9" * 5000 + " : i32}\n",
        "  %" + "9" * 5000 + " : i32 = gpu.lane_id\n",
        "  %4 : i32 = gpu.lane_id {" + "a = 1 : i32, " * 3000 + "}\n",
        "  %4 : vec<f16x" + "9" * 400 + "> = gpu.lane_id\n",
        '  %4 "' + "a" * 100_000 + '" : i32 = gpu.lane_id\n',
        "  " + "x" * 100_000 + "\n",
        "  %4 : i32 = mystery.op\n",
        "  %4 : f128 = gpu.lane_id\n",
        "  %4 : i32 = gpu.lane_id {bogus = 1 : i32}\n",
    ],
)
def test_hostile_inputs(snippet):
    base = print_kernel(sample_kernels()["axpy"])
    head, tail = base.split("body {\n", 1)
    with pytest.raises(ParseError):
        parse_kernel(head + "body {\n" + snippet + tail)


@pytest.mark.parametrize(
    "version", ["rocke.ir/0", "rocke.ir/1.1", "rocke.ir/", "ROCKE.IR/1", "rocke.ir/1\x00"]
)
def test_unknown_versions_are_refused(version):
    text = print_kernel(sample_kernels()["axpy"]).replace("rocke.ir/1", version, 1)
    with pytest.raises(ParseError) as info:
        parse_kernel(text)
    assert info.value.line == 1


@pytest.mark.parametrize("name", sorted(adversarial_inputs(64)))
def test_adversarial_inputs_are_refused_in_bounded_memory(name):
    """Peak memory of a refused parse stays within 20x its input (a 10 MB line of '{' once
    peaked at 1.28 GB: every token was made before parsing began)."""
    text = adversarial_inputs(1 << 18)[name]
    tracemalloc.start()
    try:
        with pytest.raises(ParseError):
            parse_kernel(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * len(text), f"{name}: peak {peak} bytes for {len(text)} bytes of input"


def test_a_large_valid_kernel_parses_in_bounded_memory():
    from rocke.gates.bench import synthetic_kernel

    text = print_kernel(synthetic_kernel(2000))
    tracemalloc.start()
    try:
        kernel = parse_kernel(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert print_kernel(kernel) == text and peak < 20 * len(text)


def test_sanitizer_corpus_holds_the_adversarial_inputs(tmp_path, monkeypatch):
    """platform/tools/sanitize_fuzz.py feeds the C++ parser the same hostile inputs, under ASan."""
    import importlib.util
    import sys
    from pathlib import Path

    tool = Path(__file__).resolve().parents[1] / "tools" / "sanitize_fuzz.py"
    spec = importlib.util.spec_from_file_location("sanitize_fuzz", tool)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    monkeypatch.setitem(sys.modules, "sanitize_fuzz", module)  # its dataclasses resolve annotations there
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    module.write_corpus(tmp_path, inputs=0, seed=1)
    names = {p.name for p in tmp_path.iterdir()}
    for size in module.ADVERSARIAL_SIZES:
        for name in adversarial_inputs(64):
            assert f"adv_{name}_{size}.ir" in names
