"""rocke.ir types, float helpers and the data tables behind them."""

from __future__ import annotations

import math
import pickle
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rocke.ir import (
    ADDRESS_SPACES,
    SCALAR_TYPES,
    ParseError,
    bf16,
    f16,
    f32,
    i1,
    i8,
    i16,
    i32,
    i64,
    parse_type,
    ptr,
    rsrc,
    scalar_type,
    vec,
)
from rocke.ir.floats import float_to_bits, format_float_hex, is_representable, round_to_format


def test_scalar_constants_and_text():
    assert [t.text for t in SCALAR_TYPES] == ["i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32"]
    assert (i1.bits, i8.bits, i16.bits, i32.bits, i64.bits) == (1, 8, 16, 32, 64)
    assert f16.is_float and bf16.is_float and f32.is_float and i32.is_int and not f32.is_int
    assert str(vec(f16, 4)) == "vec<f16x4>"
    assert str(ptr(f16, "global")) == "ptr<f16, global>"
    assert str(ptr(vec(bf16, 8), "lds")) == "ptr<vec<bf16x8>, lds>"
    assert str(rsrc) == "rsrc"
    assert ADDRESS_SPACES == ("global", "constant", "lds", "private")


def test_types_compare_and_hash_by_value():
    assert vec(f16, 4) == parse_type("vec<f16x4>")
    assert hash(ptr(f32, "lds")) == hash(parse_type("ptr<f32, lds>"))
    assert vec(f16, 4) != vec(f16, 8)
    assert ptr(f16, "global") != ptr(f16, "constant")
    assert len({vec(i32, 2), vec(i32, 2), i32, parse_type("i32")}) == 2
    assert vec(f32, 4) != "vec<f32x4>"


def test_types_are_immutable_and_picklable():
    t = vec(f16, 4)
    with pytest.raises(AttributeError, match="immutable"):
        t.lanes = 8  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(t)) == t
    assert pickle.loads(pickle.dumps(ptr(t, "global"))) == ptr(t, "global")


def test_shape_queries():
    v = vec(bf16, 8)
    assert v.is_vec and v.lanes == 8 and v.elem == bf16 and v.element == bf16 and v.total_bits == 128
    assert f32.lanes == 1 and f32.element == f32 and f32.total_bits == 32
    p = ptr(v, "global")
    assert p.is_ptr and p.pointee == v and p.space == "global"
    assert rsrc.is_rsrc and not rsrc.is_ptr


@pytest.mark.parametrize(
    ("call", "exc", "message"),
    [
        (lambda: vec(i1, 4), TypeError, "vec: element type i1 is not allowed"),
        (lambda: vec(f16, 1), ValueError, r"vec: lane count 1 of vec<f16x1> is out of range 2\.\.64"),
        (lambda: vec(f16, 65), ValueError, "lane count 65"),
        (lambda: vec(f16, 4.0), TypeError, "vec: lane count must be an int, got float"),
        (lambda: vec(vec(f16, 2), 2), TypeError, "vec: element type must be a scalar type, got vec<f16x2>"),
        (lambda: vec("f16", 2), TypeError, "got str"),
        (lambda: ptr(i1, "global"), TypeError, "ptr: pointee type i1 is not allowed"),
        (lambda: ptr(rsrc, "global"), TypeError, "ptr: pointee must be a scalar or vector type, got rsrc"),
        (lambda: ptr(ptr(f16, "lds"), "global"), TypeError, "got ptr<f16, lds>"),
        (lambda: ptr(f16, "shared"), ValueError, "ptr: unknown address space 'shared'; known: global"),
        (lambda: scalar_type("f64"), ValueError, "unknown scalar type 'f64'"),
    ],
)
def test_constructor_errors_name_the_type(call, exc, message):
    with pytest.raises(exc, match=message):
        call()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("f64", "line 1, col 1: unknown type 'f64'"),
        ("vec<i1x4>", "line 1, col 5: vec: element type i1 is not allowed"),
        ("vec<f16x04>", "line 1, col 5: expected ELEMxN inside vec<...>, found 'f16x04'"),
        ("vec<f16x99999999999999999999>", "line 1, col 5: expected ELEMxN"),
        ("ptr<f16, shared>", "line 1, col 10: unknown address space 'shared'"),
        ("ptr<ptr<f16, global>, global>", "line 1, col 5: ptr: pointee must be a scalar or vector type"),
        ("ptr<f16 global>", "line 1, col 9: expected ',', found 'global'"),
        ("i32 i32", "line 1, col 5: unexpected 'i32' after type i32"),
        ("", "line 1, col 1: expected a type, found end of input"),
        ("vec<f16x4", "line 1, col 10: expected '>', found end of input"),
        ("f\u00e916", "line 1, col 2: non-ASCII character"),
    ],
)
def test_parse_type_errors(text, message):
    with pytest.raises(ParseError) as info:
        parse_type(text)
    assert str(info.value).startswith(message)


def test_parse_type_deep_nesting_is_a_parse_error():
    with pytest.raises(ParseError):
        parse_type("ptr<" * 10_000)
    with pytest.raises(ParseError):
        parse_type("vec<" * 10_000)


def test_every_type_text_round_trips():
    types = [*SCALAR_TYPES, rsrc]
    for elem in SCALAR_TYPES[1:]:
        types.append(vec(elem, 2))
        for space in ADDRESS_SPACES:
            types.append(ptr(elem, space))
            types.append(ptr(vec(elem, 16), space))
    for t in types:
        assert parse_type(t.text) == t
        assert parse_type(t.text).text == t.text


# ---------------------------------------------------------------- floats


def test_float_hex_is_binary64_bits():
    assert format_float_hex(1.5) == "0x3FF8000000000000"
    assert format_float_hex(-0.0) == "0x8000000000000000"
    assert format_float_hex(math.inf) == "0x7FF0000000000000"
    payload_nan = struct.unpack(">d", bytes.fromhex("7FF8000000000123"))[0]
    assert format_float_hex(payload_nan) == "0x7FF8000000000000"


@settings(max_examples=200, deadline=None)
@given(st.floats(width=64, allow_nan=True, allow_infinity=True))
def test_round_to_f32_matches_hardware_rounding(value):
    try:
        expected = struct.unpack("<f", struct.pack("<f", value))[0]
    except OverflowError:
        expected = math.copysign(math.inf, value)
    got = round_to_format(value, f32.exp_bits, f32.man_bits)
    assert float_to_bits(got) == float_to_bits(expected)


@settings(max_examples=200, deadline=None)
@given(st.floats(width=64, allow_nan=False, allow_infinity=True))
def test_round_to_f16_matches_numpy(value):
    np = pytest.importorskip("numpy")
    with np.errstate(over="ignore"):
        expected = float(np.float16(value))
    got = round_to_format(value, f16.exp_bits, f16.man_bits)
    assert float_to_bits(got) == float_to_bits(expected)


@settings(max_examples=200, deadline=None)
@given(st.floats(width=32, allow_nan=False, allow_infinity=True))
def test_round_to_bf16_matches_ml_dtypes_from_f32(value):
    # from an f32 value, a single rounding to bf16 is exact in ml_dtypes as well
    ml_dtypes = pytest.importorskip("ml_dtypes")
    np = pytest.importorskip("numpy")
    expected = float(np.float32(value).astype(ml_dtypes.bfloat16))
    got = round_to_format(value, bf16.exp_bits, bf16.man_bits)
    assert float_to_bits(got) == float_to_bits(expected)


def test_round_to_format_edges():
    assert round_to_format(65520.0, 5, 10) == math.inf  # halfway above f16 max rounds to inf
    assert round_to_format(65519.99, 5, 10) == 65504.0
    assert round_to_format(2.0**-25, 5, 10) == 0.0  # ties to even at the smallest subnormal
    assert round_to_format(2.0**-25 * 1.0001, 5, 10) == 2.0**-24
    assert math.copysign(1.0, round_to_format(-1e-30, 5, 10)) == -1.0
    assert is_representable(0.5, 5, 10) and not is_representable(0.1, 5, 10)
    assert is_representable(float("nan"), 8, 7)
