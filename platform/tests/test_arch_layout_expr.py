"""The layout formula grammar: values, precedence, floor semantics, exact errors, totality."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rocke.arch import LayoutExprError, eval_layout_expr, parse_layout_expr
from rocke.arch.layout_expr import INT_LIMIT, MAX_LENGTH


@pytest.mark.parametrize(
    ("source", "lane", "slot", "value"),
    [
        ("7", 0, 0, 7),
        ("lane", 37, 2, 37),
        ("slot", 37, 2, 2),
        ("lane % 32", 37, 0, 5),
        ("lane / 32 * 4 + slot", 37, 3, 7),
        ("slot / 4 * 8 + lane / 32 * 4 + slot % 4", 40, 13, 29),
        ("2 + 3 * 4", 0, 0, 14),
        ("(2 + 3) * 4", 0, 0, 20),
        ("20 - 6 - 4", 0, 0, 10),  # left-associative
        ("64 / 4 / 2", 0, 0, 8),
        ("7 % 4 * 3", 0, 0, 9),  # % and * share a level, left to right
        ("slot - 5", 0, 3, -2),
        ("(slot - 5) / 4", 0, 3, -1),  # floor division
        ("(slot - 5) % 4", 0, 3, 2),  # floor modulo takes the divisor's sign
        ("7 / (slot - 5)", 0, 3, -4),
        ("7 % (slot - 5)", 0, 3, -1),
        ("  lane+slot  ", 1, 2, 3),
        ("((((lane))))", 9, 0, 9),
        ("0007", 0, 0, 7),
    ],
)
def test_values(source: str, lane: int, slot: int, value: int) -> None:
    assert eval_layout_expr(source, lane=lane, slot=slot) == value
    assert parse_layout_expr(source)(lane=lane, slot=slot) == value


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("", "bad layout expression '': empty"),
        ("   ", "bad layout expression '   ': empty"),
        ("lane +", "bad layout expression 'lane +': expected a number, 'lane', 'slot' or '(' at column 7, "
                   "found end of input"),
        ("lane slot", "bad layout expression 'lane slot': expected an operator at column 6, found 'slot'"),
        ("(lane", "bad layout expression '(lane': expected ')' at column 6, found end of input"),
        ("lane)", "bad layout expression 'lane)': expected an operator at column 5, found ')'"),
        ("* 2", "bad layout expression '* 2': expected a number, 'lane', 'slot' or '(' at column 1, found '*'"),
        ("-1", "bad layout expression '-1': expected a number, 'lane', 'slot' or '(' at column 1, found '-'"),
        ("warp % 4", "bad layout expression 'warp % 4': unknown name 'warp' at column 1"),
        ("Lane", "bad layout expression 'Lane': unexpected character at column 1"),
        ("lane\t+ 1", "bad layout expression 'lane\t+ 1': unexpected character at column 5"),
        ("2 ** 3", "bad layout expression '2 ** 3': expected a number, 'lane', 'slot' or '(' at column 4, "
                   "found '*'"),
        ("lane_id", "bad layout expression 'lane_id': unexpected character at column 5"),
        ("1.5", "bad layout expression '1.5': unexpected character at column 2"),
        ("4294967296", "bad layout expression '4294967296': number too large at column 1"),
        ("()", "bad layout expression '()': expected a number, 'lane', 'slot' or '(' at column 2, found ')'"),
    ],
)
def test_parse_errors(source: str, message: str) -> None:
    with pytest.raises(LayoutExprError) as info:
        parse_layout_expr(source)
    assert str(info.value) == message
    assert isinstance(info.value, ValueError)


def test_evaluation_errors() -> None:
    with pytest.raises(LayoutExprError, match=r"^bad layout expression 'lane / slot': division by zero$"):
        eval_layout_expr("lane / slot", lane=3, slot=0)
    with pytest.raises(LayoutExprError, match=r"^bad layout expression 'lane % \(slot - 1\)': division by zero$"):
        eval_layout_expr("lane % (slot - 1)", lane=3, slot=1)
    with pytest.raises(LayoutExprError, match=r"^bad layout expression '65536 \* 65536': value out of range$"):
        eval_layout_expr("65536 * 65536", lane=0, slot=0)
    with pytest.raises(LayoutExprError, match=r"^bad layout expression 'lane': lane must be a 32-bit int$"):
        eval_layout_expr("lane", lane=True, slot=0)  # type: ignore[arg-type]
    with pytest.raises(LayoutExprError, match=r"^bad layout expression 'lane': slot must be a 32-bit int$"):
        eval_layout_expr("lane", lane=0, slot=2**40)


def test_a_memoised_cell_still_checks_its_arguments() -> None:
    # True and 1.0 hash like 1: the memo must never answer for them.
    expr = parse_layout_expr("lane + slot")
    assert expr(lane=1, slot=0) == 1
    for lane, slot, bad in ((True, 0, "lane"), (1, 0.0, "slot"), (-(2**31), 0, "lane"), (1, 2**31, "slot")):
        message = rf"^bad layout expression 'lane \+ slot': {bad} must be a 32-bit int$"
        with pytest.raises(LayoutExprError, match=message):
            expr(lane=lane, slot=slot)  # type: ignore[arg-type]
    assert expr(lane=-(2**31 - 1), slot=2**31 - 1) == 0


def test_length_limit_and_non_string() -> None:
    ok = "1" + " + 1" * ((MAX_LENGTH - 1) // 4)
    assert len(ok) <= MAX_LENGTH
    assert eval_layout_expr(ok, lane=0, slot=0) == 1 + (MAX_LENGTH - 1) // 4
    with pytest.raises(LayoutExprError, match=rf"^bad layout expression: longer than {MAX_LENGTH} characters$"):
        parse_layout_expr("(" * 150 + "1" + ")" * 150)
    with pytest.raises(LayoutExprError, match=r"^bad layout expression: not a string$"):
        parse_layout_expr(7)  # type: ignore[arg-type]


# --- property tests -------------------------------------------------------------------------

_ALPHABET = "0123456789 lanesot+-*/%()xy_\t"


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=40), st.integers(0, 63), st.integers(0, 31))
def test_total_on_arbitrary_text(source: str, lane: int, slot: int) -> None:
    """Any text either parses or raises LayoutExprError; evaluation raises nothing else either."""
    try:
        expr = parse_layout_expr(source)
    except LayoutExprError:
        return
    try:
        value = expr(lane=lane, slot=slot)
    except LayoutExprError:
        return
    assert isinstance(value, int)
    assert -INT_LIMIT <= value <= INT_LIMIT


def _exprs() -> st.SearchStrategy[tuple[str, object]]:
    """(text, tree) pairs; the tree is evaluated independently below."""
    leaves = st.one_of(
        st.integers(0, 99).map(lambda v: (str(v), v)),
        st.sampled_from([("lane", "lane"), ("slot", "slot")]),
    )

    def extend(children: st.SearchStrategy) -> st.SearchStrategy:
        return st.tuples(children, st.sampled_from("+-*/%"), children).map(
            lambda t: (f"({t[0][0]} {t[1]} {t[2][0]})", (t[1], t[0][1], t[2][1])))

    return st.recursive(leaves, extend, max_leaves=8)


def _reference(tree: object, lane: int, slot: int) -> int | None:
    if isinstance(tree, int):
        return tree
    if tree == "lane":
        return lane
    if tree == "slot":
        return slot
    op, left, right = tree  # type: ignore[misc]
    a, b = _reference(left, lane, slot), _reference(right, lane, slot)
    if a is None or b is None:
        return None
    if op in "/%" and b == 0:
        return None
    value = {"+": a + b, "-": a - b, "*": a * b}[op] if op in "+-*" else (a // b if op == "/" else a % b)
    return value if -INT_LIMIT <= value <= INT_LIMIT else None


@settings(max_examples=200, deadline=None)
@given(_exprs(), st.integers(0, 63), st.integers(0, 31))
def test_matches_an_independent_evaluator(pair: tuple[str, object], lane: int, slot: int) -> None:
    text, tree = pair
    expected = _reference(tree, lane, slot)
    if len(text) > MAX_LENGTH:
        return
    if expected is None:
        with pytest.raises(LayoutExprError):
            eval_layout_expr(text, lane=lane, slot=slot)
    else:
        assert eval_layout_expr(text, lane=lane, slot=slot) == expected
