"""The tiny expression grammar used by the MMA catalog for fragment layouts.

A layout formula maps a (lane, slot) pair of an MMA operand fragment to a row or
column of the operand's tile. The grammar is deliberately small so that the C++
engine can reimplement it exactly:

    expr   := term (('+' | '-') term)*
    term   := factor (('*' | '/' | '%') factor)*
    factor := INT | 'lane' | 'slot' | '(' expr ')'
    INT    := [0-9]+

Spaces (U+0020) are allowed between tokens; a formula is at most
MAX_LENGTH characters, which also bounds nesting and evaluation depth.
Operators are left-associative; '*', '/' and '%' bind tighter than '+' and
'-'. '/' is floor division and '%' the matching floor modulo (the result takes
the sign of the divisor), so that `a == (a / b) * b + a % b` always holds.
Division or modulo by zero is an error. There is no unary minus. Parsing is
total: any input string either parses or raises LayoutExprError with a fixed
message; evaluation never uses eval(). Literals and every intermediate value
must stay within +-INT_LIMIT (a 32-bit signed int), else it is an error too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rocke.arch.errors import LayoutExprError

VARIABLES = ("lane", "slot")
MAX_LENGTH = 200
INT_LIMIT = 2**31 - 1
_OPERATORS = "+-*/%"


@dataclass(frozen=True)
class _Token:
    kind: str  # "int", "name", "op", "(", ")", "end"
    text: str
    column: int  # 1-based column of the token's first character


def _tokenize(source: str) -> list[_Token]:
    tokens: list[_Token] = []
    i = 0
    n = len(source)
    while i < n:
        ch = source[i]
        if ch == " ":
            i += 1
        elif "0" <= ch <= "9":
            start = i
            while i < n and "0" <= source[i] <= "9":
                i += 1
            if int(source[start:i]) > INT_LIMIT:
                raise LayoutExprError(
                    f"bad layout expression '{source}': number too large at column {start + 1}")
            tokens.append(_Token("int", source[start:i], start + 1))
        elif "a" <= ch <= "z":
            start = i
            while i < n and "a" <= source[i] <= "z":
                i += 1
            word = source[start:i]
            if word not in VARIABLES:
                raise LayoutExprError(f"bad layout expression '{source}': unknown name '{word}' at column "
                                      f"{start + 1}")
            tokens.append(_Token("name", word, start + 1))
        elif ch in _OPERATORS:
            tokens.append(_Token("op", ch, i + 1))
            i += 1
        elif ch in "()":
            tokens.append(_Token(ch, ch, i + 1))
            i += 1
        else:
            raise LayoutExprError(f"bad layout expression '{source}': unexpected character at column {i + 1}")
    tokens.append(_Token("end", "", n + 1))
    return tokens


# A parsed expression is a tree of plain tuples: ("int", value), ("var", name),
# or (op, left, right). Tuples keep the evaluator a few lines long.
Node = tuple


class _Parser:
    def __init__(self, source: str) -> None:
        self.source = source
        self.tokens = _tokenize(source)
        self.pos = 0

    def _peek(self) -> _Token:
        return self.tokens[self.pos]

    def _fail(self, what: str) -> LayoutExprError:
        tok = self._peek()
        found = "end of input" if tok.kind == "end" else f"'{tok.text}'"
        return LayoutExprError(f"bad layout expression '{self.source}': expected {what} at column "
                               f"{tok.column}, found {found}")

    def parse(self) -> Node:
        if self._peek().kind == "end":
            raise LayoutExprError(f"bad layout expression '{self.source}': empty")
        node = self._expr()
        if self._peek().kind != "end":
            raise self._fail("an operator")
        return node

    def _expr(self) -> Node:
        node = self._term()
        while self._peek().kind == "op" and self._peek().text in "+-":
            op = self.tokens[self.pos].text
            self.pos += 1
            node = (op, node, self._term())
        return node

    def _term(self) -> Node:
        node = self._factor()
        while self._peek().kind == "op" and self._peek().text in "*/%":
            op = self.tokens[self.pos].text
            self.pos += 1
            node = (op, node, self._factor())
        return node

    def _factor(self) -> Node:
        tok = self._peek()
        if tok.kind == "int":
            self.pos += 1
            return ("int", int(tok.text))
        if tok.kind == "name":
            self.pos += 1
            return ("var", tok.text)
        if tok.kind == "(":
            self.pos += 1
            node = self._expr()
            if self._peek().kind != ")":
                raise self._fail("')'")
            self.pos += 1
            return node
        raise self._fail("a number, 'lane', 'slot' or '('")


MEMO_LIMIT = 4096  # memoised (lane, slot) values per formula: a wave's lanes times its slots, with room

@dataclass(frozen=True)
class LayoutExpr:
    """A parsed layout formula; evaluate with `expr(lane=..., slot=...)`."""

    source: str
    tree: Node
    # (lane, slot) -> value: the builders ask for the same few coordinates many times
    _memo: dict[tuple[int, int], int] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __call__(self, *, lane: int, slot: int) -> int:
        # One test for the common case (plans sweep a wave's lanes and slots, thousands of calls
        # per kernel); the loop below only names the bad argument.
        if not (type(lane) is int and type(slot) is int
                and -INT_LIMIT <= lane <= INT_LIMIT and -INT_LIMIT <= slot <= INT_LIMIT):
            for name, value in (("lane", lane), ("slot", slot)):
                if type(value) is not int or value > INT_LIMIT or value < -INT_LIMIT:
                    raise LayoutExprError(f"bad layout expression '{self.source}': {name} must be a 32-bit int")
        key = (lane, slot)
        found = self._memo.get(key)
        if found is None:
            found = _evaluate(self.source, self.tree, lane, slot)
            if len(self._memo) < MEMO_LIMIT:
                self._memo[key] = found
        return found


def parse_layout_expr(source: str) -> LayoutExpr:
    """Parse a layout formula, raising LayoutExprError on any malformed input."""
    if not isinstance(source, str):
        raise LayoutExprError("bad layout expression: not a string")
    if len(source) > MAX_LENGTH:
        raise LayoutExprError(f"bad layout expression: longer than {MAX_LENGTH} characters")
    return LayoutExpr(source, _Parser(source).parse())


def eval_layout_expr(source: str, *, lane: int, slot: int) -> int:
    """Parse and evaluate a layout formula in one step."""
    return parse_layout_expr(source)(lane=lane, slot=slot)


def _evaluate(source: str, node: Node, lane: int, slot: int) -> int:
    kind = node[0]
    if kind == "int":
        return node[1]
    if kind == "var":
        return lane if node[1] == "lane" else slot
    left = _evaluate(source, node[1], lane, slot)
    right = _evaluate(source, node[2], lane, slot)
    if kind == "+":
        value = left + right
    elif kind == "-":
        value = left - right
    elif kind == "*":
        value = left * right
    elif right == 0:
        raise LayoutExprError(f"bad layout expression '{source}': division by zero")
    elif kind == "/":
        value = left // right
    else:
        value = left % right
    if value > INT_LIMIT or value < -INT_LIMIT:
        raise LayoutExprError(f"bad layout expression '{source}': value out of range")
    return value
