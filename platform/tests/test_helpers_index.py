"""rocke.helpers index math: host integer facts and the IR helpers' build-time folding."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rocke.helpers import (
    add_i32,
    ceil_div,
    ceil_div_i32,
    const_i32,
    gcd_all,
    global_id_x,
    guaranteed_align,
    mul_i32,
    pow2_factor,
)
from rocke.ir import Builder, i32, print_kernel


@given(st.integers(0, 10**6), st.integers(1, 10**4))
@settings(max_examples=150)
def test_ceil_div(a: int, b: int) -> None:
    q = ceil_div(a, b)
    assert q == math.ceil(a / b)
    assert (q * b >= a and (q - 1) * b < a) or a == q == 0


@given(st.integers(1, 2**40))
@settings(max_examples=150)
def test_pow2_factor(value: int) -> None:
    p = pow2_factor(value)
    assert value % p == 0 and (value // p) % 2 == 1 and p & (p - 1) == 0


def test_gcd_all() -> None:
    assert gcd_all([]) == 0
    assert gcd_all([0, 0]) == 0
    assert gcd_all([12, 18, 0, 30]) == 6
    assert gcd_all([-4, 6]) == 2


@pytest.mark.parametrize(
    ("esize", "cap", "multiples", "expected"),
    [
        (2, 16, [40, 8], 16),  # 8 elements of 2 bytes
        (2, 16, [36, 8], 8),  # stride 36 halves: 4 elements
        (2, 16, [33, 8], 2),  # odd stride: element alignment only
        (2, 8, [64, 64], 8),  # capped at the access size
        (4, 16, [0], 16),  # an index that is always 0
        (4, 16, [1], 4),
    ],
)
def test_guaranteed_align(esize: int, cap: int, multiples: list[int], expected: int) -> None:
    assert guaranteed_align(esize, cap, multiples) == expected


def _body_lines(build) -> list[str]:
    b = Builder("k", max_workgroup_size=64)
    x = b.param("x", i32)
    build(b, x)
    text = print_kernel(b.finish())
    lines = text.split("body {\n", 1)[1].splitlines()
    assert lines[-1] == "}"
    return lines[:-1]


def test_add_and_mul_fold_identities() -> None:
    assert _body_lines(lambda b, x: (add_i32(b, x, 0), mul_i32(b, x, 1), ceil_div_i32(b, x, 1))) == []
    lines = _body_lines(lambda b, x: add_i32(b, x, 3, name="y"))
    assert lines[-1].endswith('"y" : i32 = arith.add %0, %1')
    assert _body_lines(lambda b, x: add_i32(b, x, 0, name="y"))[-1].endswith("arith.add %0, %1")


def test_ceil_div_and_global_id_ir() -> None:
    lines = _body_lines(lambda b, x: ceil_div_i32(b, x, 16))
    assert [line.split("= ", 1)[1] for line in lines] == [
        "arith.constant {value = 15 : i32}",
        "arith.add %0, %1",
        "arith.constant {value = 16 : i32}",
        "arith.divu %2, %3",
    ]
    lines = _body_lines(lambda b, x: global_id_x(b, 128))
    assert lines[0].startswith('  %1 "bid" : i32 = gpu.block_id_x')
    assert lines[-1] == '  %5 "gid" : i32 = arith.add %3, %4'


def test_const_i32_wraps() -> None:
    lines = _body_lines(lambda b, x: const_i32(b, -(2**31)))
    assert lines == ["  %1 : i32 = arith.constant {value = -2147483648 : i32}"]
