"""The rocke.ir/1 text format: printer, parser, canonicalize, and exact error positions."""

from __future__ import annotations

import math
import struct

import pytest

from rocke.ir import (
    Builder,
    ParseError,
    bf16,
    canonicalize,
    equivalent,
    f16,
    f32,
    i1,
    i8,
    i64,
    parse_kernel,
    print_kernel,
    ptr,
    verify,
)
from rocke.ir.samples import axpy, sample_kernels

AXPY_TEXT = """\
rocke.ir/1
kernel @axpy {max_workgroup_size = 256 : i32, waves_per_eu = 0 : i32}
param %0 "x" : ptr<f32, global> {align = 16 : i32, noalias = true : bool, readonly = true : bool, \
writeonly = false : bool}
param %1 "y" : ptr<f32, global> {align = 16 : i32, noalias = true : bool, readonly = false : bool, \
writeonly = false : bool}
param %2 "a" : f32
param %3 "n" : i32
body {
  %4 "bid" : i32 = gpu.block_id_x
  %5 "bdim" : i32 = gpu.block_dim_x
  %6 : i32 = arith.mul %4, %5
  %7 "tid" : i32 = gpu.thread_id_x
  %8 "gid" : i32 = arith.add %6, %7
  %9 "in_range" : i1 = arith.cmpi %8, %3 {pred = "slt" : str}
  scf.if %9 then {
    %10 "xv" : f32 = mem.load %0, %8 {align = 0 : i32, lanes = 1 : i32}
    %11 "yv" : f32 = mem.load %1, %8 {align = 0 : i32, lanes = 1 : i32}
    %12 "r" : f32 = arith.fma %2, %10, %11
    mem.store %1, %8, %12 {align = 0 : i32}
    scf.yield
  } else {
    scf.yield
  }
}
"""


def test_golden_axpy_text():
    assert print_kernel(axpy()) == AXPY_TEXT


def test_text_shape_rules():
    text = print_kernel(axpy())
    assert text.endswith("}\n") and "\r" not in text and "\t" not in text
    assert text.splitlines()[0] == "rocke.ir/1"
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        assert indent % 2 == 0


@pytest.mark.parametrize("name", list(sample_kernels()))
def test_samples_round_trip_byte_identically(name):
    kernel = sample_kernels()[name]
    text = print_kernel(kernel)
    parsed = parse_kernel(text)
    verify(parsed)
    assert print_kernel(parsed) == text
    assert print_kernel(parse_kernel(text.encode("ascii"))) == text
    assert print_kernel(canonicalize(kernel)) == text  # builders emit canonical ids
    assert equivalent(kernel, parsed)


def test_floats_round_trip_exactly():
    values = [
        (0.0, f32),
        (-0.0, f32),
        (1.5, f32),
        (math.inf, f32),
        (-math.inf, f16),
        (math.nan, bf16),
        (2.0**-149, f32),
        (3.4028234663852886e38, f32),
        (2.0**-24, f16),
        (65504.0, f16),
        (1 / 3, f32),
        (1 / 3, f16),
        (1 / 3, bf16),
        (2.0**-133, bf16),
    ]
    b = Builder("floats")
    out = b.param("out", ptr(f32, "global"))
    for value, ty in values:
        c = b.const(value, ty)
        b.store(out, b.const(0, i64), c if ty == f32 else b.extf(c, f32))
    kernel = b.finish()
    text = print_kernel(kernel)
    assert "value = 0x8000000000000000 : f32" in text
    assert "value = 0x7FF8000000000000 : bf16" in text
    assert "value = 0x36A0000000000000 : f32" in text  # 2**-149, the smallest f32 subnormal
    parsed = parse_kernel(text)
    got = [op.attrs["value"] for op in parsed.walk() if op.opcode == "arith.constant"][::2]
    want = [op.attrs["value"] for op in kernel.walk() if op.opcode == "arith.constant"][::2]
    assert [struct.pack(">d", g) for g in got] == [struct.pack(">d", w) for w in want]
    assert print_kernel(parsed) == text


def test_int_constants_use_signed_decimal():
    b = Builder("ints")
    out = b.param("out", ptr(i8, "global"))
    flag = b.const(True, i1)
    big = b.const(0xFFFFFFFFFFFFFFFF, i64)
    b.store(out, big, b.select(flag, b.const(200, i8), b.const(-128, i8)))
    text = print_kernel(b.finish())
    assert "{value = 1 : i1}" in text and "{value = -1 : i64}" in text and "{value = -56 : i8}" in text
    assert print_kernel(parse_kernel(text)) == text


def test_canonicalize_renumbers_by_first_definition():
    scrambled = (
        "rocke.ir/1\n"
        "kernel @k {max_workgroup_size = 64 : i32, waves_per_eu = 0 : i32}\n"
        'param %70 "n" : i32\n'
        "body {\n"
        '  %5 "c" : i32 = arith.constant {value = 0 : i32}\n'
        '  %900 "s" : i32 = scf.for %5, %70, %70, %5 body(%3 "i" : i32, %4 "acc" : i32) {\n'
        "    %1 : i32 = arith.add %4, %3\n"
        "    scf.yield %1\n"
        "  }\n"
        "}\n"
    )
    canonical = (
        "rocke.ir/1\n"
        "kernel @k {max_workgroup_size = 64 : i32, waves_per_eu = 0 : i32}\n"
        'param %0 "n" : i32\n'
        "body {\n"
        '  %1 "c" : i32 = arith.constant {value = 0 : i32}\n'
        '  %2 "s" : i32 = scf.for %1, %0, %0, %1 body(%3 "i" : i32, %4 "acc" : i32) {\n'
        "    %5 : i32 = arith.add %4, %3\n"
        "    scf.yield %5\n"
        "  }\n"
        "}\n"
    )
    kernel = parse_kernel(scrambled)
    verify(kernel)
    assert print_kernel(kernel) == scrambled
    once = canonicalize(kernel)
    assert print_kernel(once) == canonical
    assert print_kernel(canonicalize(once)) == canonical
    assert print_kernel(kernel) == scrambled  # the input is not modified
    assert equivalent(kernel, parse_kernel(canonical))


def test_canonicalize_refuses_broken_dominance():
    kernel = axpy()
    kernel.body.ops[0], kernel.body.ops[2] = kernel.body.ops[2], kernel.body.ops[0]
    with pytest.raises(ValueError, match=r"canonicalize: %4 used by arith.mul before its definition"):
        canonicalize(kernel)


def test_parser_accepts_blank_lines_spacing_and_a_missing_final_newline():
    text = AXPY_TEXT.replace("body {\n", "\nbody  {\n\n").replace("%6 : i32", "%6   :   i32")
    assert print_kernel(parse_kernel(text.rstrip("\n"))) == AXPY_TEXT


def _with(old: str, new: str) -> str:
    assert old in AXPY_TEXT
    return AXPY_TEXT.replace(old, new, 1)


ERRORS = [
    ("", "line 1, col 1: expected version header 'rocke.ir/1'"),
    ("rocke.ir/2\nkernel", "line 1, col 1: unsupported version 'rocke.ir/2' (expected 'rocke.ir/1')"),
    ("rocke.ir/1 \n", "line 1, col 1: unsupported version 'rocke.ir/1 ' (expected 'rocke.ir/1')"),
    ("rocke.ir/1", "line 1, col 11: expected 'kernel', found end of input"),
    (
        AXPY_TEXT.replace("\n", "\r\n"),
        "line 1, col 11: carriage return is not allowed (LF line endings only)",
    ),
    (_with("  %5", "\t%5"), "line 9, col 1: control character 0x09 is not allowed"),
    (_with('"bdim"', '"bd\u00efm"'), "line 9, col 9: non-ASCII character (the format is ASCII only)"),
    (_with("gpu.block_dim_x", "gpu.block_dimx"), "line 9, col 21: unknown op 'gpu.block_dimx'"),
    (_with("%6 : i32", "%6 : f64"), "line 10, col 8: unknown type 'f64'"),
    (
        _with("%6 : i32", "%6 : vec<i32x1>"),
        "line 10, col 12: vec: lane count 1 of vec<i32x1> is out of range 2..64",
    ),
    (
        _with("lanes = 1 : i32}", "lanes = 1 : i32, nt = true : bool}"),
        "line 15, col 73: unknown attribute 'nt' for mem.load",
    ),
    (
        _with("{align = 0 : i32, lanes = 1 : i32}", "{align = 0 : i32}"),
        "line 15, col 38: missing attribute 'lanes' for mem.load",
    ),
    (
        _with("lanes = 1 : i32", "lanes = 1 : i64"),
        "line 15, col 68: attribute 'lanes' has type i64, expected i32",
    ),
    (
        _with("{align = 0 : i32, lanes = 1 : i32}", "{lanes = 1 : i32, align = 0 : i32}"),
        "line 15, col 56: attributes must be sorted by name: 'align'",
    ),
    (
        _with("{align = 0 : i32, lanes = 1 : i32}", "{lanes = 1 : i32, lanes = 1 : i32}"),
        "line 15, col 56: duplicate attribute 'lanes'",
    ),
    (
        _with("lanes = 1 : i32", "lanes = 99 : i32"),
        "line 15, col 64: attribute 'lanes' = 99 is out of range 1..64",
    ),
    (
        _with("lanes = 1 : i32", "lanes = 123456789012345678901234567890 : i32"),
        "line 15, col 64: integer literal too long (max 20 digits)",
    ),
    (
        _with("lanes = 1 : i32", "lanes = 01 : i32"),
        "line 15, col 64: integer literal with a leading zero or negative zero: 01",
    ),
    (
        _with("lanes = 1 : i32", "lanes = true : i32"),
        "line 15, col 64: attribute 'lanes' value 'true' does not fit its type",
    ),
    (
        _with('{pred = "slt" : str}', '{pred = "lt" : str}'),
        "line 13, col 50: attribute 'pred' = 'lt' is not one of: "
        "eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge",
    ),
    (_with('{pred = "slt" : str}', '{pred = "slt}'), "line 13, col 50: unterminated string"),
    (
        _with('{pred = "slt" : str}', '{pred = "s\\lt" : str}'),
        "line 13, col 52: backslash is not allowed in strings",
    ),
    (
        _with("arith.fma %2, %10, %11", "arith.fma %2, %10, %99"),
        "line 17, col 40: use of undefined value %99",
    ),
    (
        _with("arith.fma %2, %10, %11", "arith.fma %2, %10"),
        "line 17, col 21: arith.fma takes 3 operands, got 2",
    ),
    (
        _with('%12 "r" : f32 =', '%12 "r" : f32, %13 : f32 ='),
        "line 17, col 32: arith.fma produces 1 result, got 2",
    ),
    (_with('%11 "yv"', '%10 "yv"'), "line 16, col 5: value %10 is defined twice"),
    (
        _with("mem.store %1, %8, %12", "mem.store %1, %8, %012"),
        "line 18, col 23: value id with a leading zero: %012",
    ),
    (
        _with("mem.store %1, %8, %12", "mem.store %1, %8, %1234567890"),
        "line 18, col 23: value id too large (max 999999999)",
    ),
    (
        _with("  }\n}\n", "  }\n  mem.store %1, %8, %12 {align = 0 : i32}\n}\n"),
        "line 23, col 21: value %12 is not visible here",
    ),
    (_with("  } else {\n    scf.yield\n  }\n", "  }\n"), "line 20, col 4: scf.if needs region 'else'"),
    (_with("} else {", "} otherwise {"), "line 20, col 5: expected region 'else', found 'otherwise'"),
    (
        _with("arith.fma %2, %10, %11", "arith.fma %2, %10, %11 then {"),
        "line 17, col 44: unexpected 'then': arith.fma has 0 regions",
    ),
    (
        _with('param %2 "a" : f32', 'param %2 "a" : f32 {noalias = true : bool}'),
        "line 5, col 20: attributes apply only to pointer params",
    ),
    (
        _with('param %2 "a" : f32', 'param %2 "a" : i1'),
        "line 5, col 16: type i1 is not allowed for kernel params; "
        "allowed: i8|i16|i32|i64|f16|bf16|f32|ptr_global|ptr_constant",
    ),
    (
        _with("kernel @axpy", "kernel @ax.py"),
        "line 2, col 8: expected @NAME (letters, digits, '_'), found '@ax.py'",
    ),
    (
        _with("kernel @axpy {max_workgroup_size = 256 : i32, ", "kernel @axpy {"),
        "line 2, col 14: missing attribute 'max_workgroup_size' for kernel @axpy",
    ),
    (AXPY_TEXT + "junk\n", "line 24, col 1: unexpected 'junk' after the kernel body"),
    (AXPY_TEXT[: AXPY_TEXT.index("  } else")], "line 20, col 1: expected '}' before end of input"),
    (_with('%9 "in_range"', '%9 "in range"'), 'line 13, col 6: invalid name hint "in range"'),
    (_with('%10 "xv" : f32', '%10 "xv" : f32 extra'), "line 15, col 20: expected '=', found 'extra'"),
    (_with('%4 "bid"', '% 4 "bid"'), "line 8, col 3: expected digits after '%'"),
]


@pytest.mark.parametrize(("text", "message"), ERRORS)
def test_parse_errors_have_exact_positions(text, message):
    with pytest.raises(ParseError) as info:
        parse_kernel(text)
    assert str(info.value) == message
    line, col = message.split(":")[0].replace("line ", "").split(", col ")
    assert (info.value.line, info.value.col) == (int(line), int(col))


def test_float_literal_errors():
    b = Builder("f")
    out = b.param("out", ptr(f16, "global"))
    b.store(out, b.const(0, i64), b.const(0.5, f16))
    text = print_kernel(b.finish())
    assert "0x3FE0000000000000 : f16" in text
    cases = [
        (
            "0x3FE0000000000000 : f16",
            "0x3fe0000000000000 : f16",
            "float literal must be 0x followed by 16 upper-case hex digits",
        ),
        ("0x3FE0000000000000 : f16", "0x3FE000000000000 : f16", "float literal must be 0x followed by 16"),
        (
            "0x3FE0000000000000 : f16",
            "0x3FB999999999999A : f16",
            "attribute 'value' = 0x3FB999999999999A is not exactly representable in f16",
        ),
        (
            "0x3FE0000000000000 : f16",
            "0x7FF8000000000001 : f16",
            "non-canonical NaN (NaN is written 0x7FF8000000000000)",
        ),
        (
            "0x3FE0000000000000 : f16",
            "0x3FE0000000000000 : f32",
            "attribute 'value' has type f32, expected f16",
        ),
        ("0x3FE0000000000000 : f16", "1 : f16", "attribute 'value' value '1' does not fit its type"),
    ]
    for old, new, message in cases:
        with pytest.raises(ParseError, match=message.replace("(", r"\(").replace(")", r"\)")):
            parse_kernel(text.replace(old, new))


def test_int_range_is_bounded_by_the_type():
    b = Builder("i")
    out = b.param("out", ptr(i8, "global"))
    b.store(out, b.const(0, i64), b.const(5, i8))
    text = print_kernel(b.finish())
    for value, ok in [("127", True), ("-128", True), ("128", False), ("-129", False), ("-0", False)]:
        mutated = text.replace("value = 5 : i8", f"value = {value} : i8")
        if ok:
            parse_kernel(mutated)
        else:
            with pytest.raises(ParseError):
                parse_kernel(mutated)


def test_deep_nesting_is_refused_cleanly():
    depth = 200
    lines = [
        "rocke.ir/1",
        "kernel @d {max_workgroup_size = 64 : i32, waves_per_eu = 0 : i32}",
        "param %0 : i32",
        "body {",
        '  %1 : i1 = arith.cmpi %0, %0 {pred = "eq" : str}',
    ]
    lines += ["scf.if %1 then {"] * depth
    with pytest.raises(ParseError) as info:
        parse_kernel("\n".join(lines) + "\n")
    assert str(info.value) == "line 69, col 16: region nesting deeper than 64"


def test_parse_kernel_rejects_non_text():
    with pytest.raises(TypeError, match="parse_kernel: expected str or bytes, got int"):
        parse_kernel(3)  # type: ignore[arg-type]
    with pytest.raises(ParseError, match="line 1, col 1: non-ASCII character"):
        parse_kernel(b"\xff")


def test_docs_example_matches_the_printer():
    from pathlib import Path

    from rocke.ir.samples import block_reduce

    doc = Path(__file__).resolve().parents[1] / "docs" / "ir-format.md"
    if not doc.exists():
        pytest.fail(f"{doc} is missing")
    example = doc.read_text(encoding="ascii").split("## 13. Complete example", 1)[1]
    block = example.split("```\n", 2)[1]
    assert block == print_kernel(block_reduce())
    assert print_kernel(parse_kernel(block)) == block
