"""parse_kernel: rocke.ir/1 text -> KernelDef. Untrusted input: every failure is a ParseError.

The parser checks syntax and conformance to the tables (known ops, operand/result/region counts,
exact typed attributes with in-range values, param types) and id scoping (every use refers to a
visible earlier definition, every id is defined once). Type rules and the other semantic checks
are verify()'s job. Limits: region depth, id size and integer literal length come from ir.toml.
"""

from __future__ import annotations

from .attrs import KERNEL_ATTRS, PARAM_ATTRS, AttrDef, AttrValue, check_attr_value
from .constraints import PARAM_TYPES
from .core import KernelDef, Op, Param, Region, Value
from .errors import OpCheckError, ParseError
from .facts import MAX_INT_DIGITS, MAX_REGION_DEPTH, MAX_VALUE_ID, VERSION
from .floats import bits_to_float, float_to_bits
from .lexer import Token, TokenStream, check_characters, echo
from .names import is_hint, is_kernel_name
from .optable import OP_BY_NAME, OpDef
from .typecheck import check_operand_count, check_result_count
from .types import ScalarType, Type, describe_token, parse_type_stream

_ID_DIGITS = len(str(MAX_VALUE_ID))
_HEX_DIGITS = "0123456789ABCDEF"

# One parsed attribute: (name, name token, value token, type text, type token).
_RawAttr = tuple[str, Token, Token, str, Token]


def parse_kernel(text: str | bytes) -> KernelDef:
    """Parse rocke.ir/1 text (str or ASCII bytes). Raises ParseError, and nothing else, on bad text."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("latin-1")  # total; non-ASCII bytes are then refused by position
    if not isinstance(text, str):
        raise TypeError(f"parse_kernel: expected str or bytes, got {type(text).__name__}")
    return _Parser(text).parse()


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = TokenStream("")
        self.visible: dict[int, Value] = {}
        self.defined: set[int] = set()

    # ------------------------------------------------------------------ token helpers
    def error(self, tok: Token, what: str) -> ParseError:
        return ParseError(tok[2], tok[3], what)

    def peek(self) -> Token:
        return self.toks.peek()

    def take(self) -> Token:
        return self.toks.take()

    def expect_punct(self, punct: str) -> Token:
        tok = self.take()
        if tok[0] != "punct" or tok[1] != punct:
            raise self.error(tok, f"expected '{punct}', found {describe_token(tok)}")
        return tok

    def expect_word(self, word: str) -> Token:
        tok = self.take()
        if tok[0] != "ident" or tok[1] != word:
            raise self.error(tok, f"expected '{word}', found {describe_token(tok)}")
        return tok

    def expect_end_of_line(self) -> None:
        tok = self.take()
        if tok[0] != "nl":
            raise self.error(tok, f"expected end of line, found {describe_token(tok)}")

    def skip_blank_lines(self) -> None:
        self.toks.skip_newlines()

    def at_punct(self, punct: str) -> bool:
        tok = self.toks.peek()
        return tok[0] == "punct" and tok[1] == punct

    def parse_type(self) -> tuple[Type, Token]:
        tok = self.peek()
        return parse_type_stream(self.toks), tok

    # ------------------------------------------------------------------ literals and ids
    def value_id(self, tok: Token) -> int:
        digits = tok[1][1:]
        if len(digits) > _ID_DIGITS or int(digits) > MAX_VALUE_ID:
            raise self.error(tok, f"value id too large (max {MAX_VALUE_ID})")
        if len(digits) > 1 and digits[0] == "0":
            raise self.error(tok, f"value id with a leading zero: {echo(tok[1])}")
        return int(digits)

    def int_literal(self, tok: Token) -> int:
        digits = tok[1].lstrip("-")
        if len(digits) > MAX_INT_DIGITS:
            raise self.error(tok, f"integer literal too long (max {MAX_INT_DIGITS} digits)")
        if (len(digits) > 1 and digits[0] == "0") or tok[1] == "-0":
            raise self.error(tok, f"integer literal with a leading zero or negative zero: {echo(tok[1])}")
        return int(tok[1])

    def float_literal(self, tok: Token) -> float:
        digits = tok[1][2:]
        if len(digits) != 16 or any(ch not in _HEX_DIGITS for ch in digits):
            raise self.error(tok, "float literal must be 0x followed by 16 upper-case hex digits")
        bits = int(digits, 16)
        value = bits_to_float(bits)
        if float_to_bits(value) != bits:
            raise self.error(tok, "non-canonical NaN (NaN is written 0x7FF8000000000000)")
        return value

    # ------------------------------------------------------------------ definitions and uses
    def define(self, tok: Token, ty: Type, hint: str | None) -> Value:
        value_id = self.value_id(tok)
        if value_id in self.defined:
            raise self.error(tok, f"value %{value_id} is defined twice")
        self.defined.add(value_id)
        return Value(value_id, ty, hint)

    def use(self, tok: Token) -> Value:
        if tok[0] != "value":
            raise self.error(tok, f"expected a value id, found {describe_token(tok)}")
        value_id = self.value_id(tok)
        value = self.visible.get(value_id)
        if value is None:
            if value_id in self.defined:
                raise self.error(tok, f"value %{value_id} is not visible here")
            raise self.error(tok, f"use of undefined value %{value_id}")
        return value

    def definition(self) -> tuple[Token, Value, Token]:
        """%ID ["HINT"] : TYPE"""
        tok = self.take()
        if tok[0] != "value":
            raise self.error(tok, f"expected a value id, found {describe_token(tok)}")
        hint = None
        if self.peek()[0] == "str":
            hint_tok = self.take()
            hint = hint_tok[1][1:-1]
            if not is_hint(hint):
                raise self.error(hint_tok, f"invalid name hint {echo(hint_tok[1])}")
        self.expect_punct(":")
        ty, type_tok = self.parse_type()
        return tok, self.define(tok, ty, hint), type_tok

    # ------------------------------------------------------------------ attributes
    def raw_attrs(self, defs: tuple[AttrDef, ...]) -> list[_RawAttr]:
        """{NAME = VALUE : TYPE, ...} with names strictly increasing.

        Only the entries attrs_for can report on are kept: those named in defs and the first other
        one (the unknown attribute it would name), so the list never outgrows the table.
        """
        self.expect_punct("{")
        entries: list[_RawAttr] = []
        if self.at_punct("}"):
            self.take()
            return entries
        known = {adef.name for adef in defs}
        last_name: str | None = None
        kept_unknown = False
        while True:
            name_tok = self.take()
            if name_tok[0] != "ident":
                raise self.error(name_tok, f"expected an attribute name, found {describe_token(name_tok)}")
            if last_name is not None and name_tok[1] <= last_name:
                what = (
                    "duplicate attribute"
                    if name_tok[1] == last_name
                    else "attributes must be sorted by name:"
                )
                raise self.error(name_tok, f"{what} '{echo(name_tok[1])}'")
            last_name = name_tok[1]
            self.expect_punct("=")
            value_tok = self.take()
            if value_tok[0] not in ("int", "hex", "str") and not (
                value_tok[0] == "ident" and value_tok[1] in ("true", "false")
            ):
                raise self.error(value_tok, f"expected an attribute value, found {describe_token(value_tok)}")
            self.expect_punct(":")
            type_tok = self.peek()
            if type_tok[0] == "ident" and type_tok[1] in ("bool", "str"):
                self.take()
                attr_type = type_tok[1]
            else:
                attr_type = self.parse_type()[0].text
            if name_tok[1] in known or not kept_unknown:
                kept_unknown = kept_unknown or name_tok[1] not in known
                entries.append((name_tok[1], name_tok, value_tok, attr_type, type_tok))
            sep = self.take()
            if sep[0] == "punct" and sep[1] == "}":
                return entries
            if sep[0] != "punct" or sep[1] != ",":
                raise self.error(sep, f"expected ',' or '}}', found {describe_token(sep)}")

    def attr_value(self, adef: AttrDef, raw: _RawAttr, num_type: Type | None) -> AttrValue:
        name, _, value_tok, attr_type, type_tok = raw
        kind = adef.kind
        if kind == "num":
            if not isinstance(num_type, ScalarType):
                raise self.error(type_tok, f"attribute '{name}' needs an int or float scalar result type")
            if attr_type != num_type.text:
                raise self.error(
                    type_tok, f"attribute '{name}' has type {attr_type}, expected {num_type.text}"
                )
            want = "int" if num_type.is_int else "hex"
        else:
            if attr_type != kind:
                raise self.error(type_tok, f"attribute '{name}' has type {attr_type}, expected {kind}")
            want = {"bool": "ident", "str": "str"}.get(kind, "int")
        if value_tok[0] != want:
            raise self.error(
                value_tok, f"attribute '{name}' value {describe_token(value_tok)} does not fit its type"
            )
        value: AttrValue
        if want == "ident":
            value = value_tok[1] == "true"
        elif want == "str":
            value = value_tok[1][1:-1]
        elif want == "hex":
            value = self.float_literal(value_tok)
        else:
            value = self.int_literal(value_tok)
        problem = check_attr_value(adef, value, num_type)
        if problem is not None:
            raise self.error(value_tok, problem)
        return value

    def attrs_for(
        self, defs: tuple[AttrDef, ...], raws: list[_RawAttr], at: Token, owner: str, num_type: Type | None
    ) -> dict[str, AttrValue]:
        # Same order as the verifier: missing (table order), unknown (sorted = text order), values.
        by_name = {raw[0]: raw for raw in raws}
        for adef in defs:
            if adef.name not in by_name:
                raise self.error(at, f"missing attribute '{adef.name}' for {owner}")
        for raw in raws:
            if not any(adef.name == raw[0] for adef in defs):
                raise self.error(raw[1], f"unknown attribute '{echo(raw[0])}' for {owner}")
        return {adef.name: self.attr_value(adef, by_name[adef.name], num_type) for adef in defs}

    # ------------------------------------------------------------------ structure
    def parse(self) -> KernelDef:
        text = self.text
        check_characters(text)
        newline = text.find("\n")
        header = text if newline < 0 else text[:newline]
        if header != VERSION:
            if header.startswith("rocke.ir/"):
                raise ParseError(1, 1, f"unsupported version '{echo(header)}' (expected '{VERSION}')")
            raise ParseError(1, 1, f"expected version header '{VERSION}'")
        if newline >= 0:
            self.toks = TokenStream(text, newline + 1, 2)
        else:
            self.toks = TokenStream(text, len(text), 1, 0)
        self.skip_blank_lines()
        self.expect_word("kernel")
        sym = self.take()
        if sym[0] != "sym" or not is_kernel_name(sym[1][1:]):
            raise self.error(sym, f"expected @NAME (letters, digits, '_'), found {describe_token(sym)}")
        name = sym[1][1:]
        at = self.peek()
        raws = self.raw_attrs(KERNEL_ATTRS) if self.at_punct("{") else []
        kernel_attrs = self.attrs_for(KERNEL_ATTRS, raws, at, f"kernel @{name}", None)
        self.expect_end_of_line()
        params = []
        self.skip_blank_lines()
        while self.peek()[0] == "ident" and self.peek()[1] == "param":
            params.append(self.param())
            self.skip_blank_lines()
        self.expect_word("body")
        self.expect_punct("{")
        self.expect_end_of_line()
        body = Region((), self.region_ops(1))
        self.skip_blank_lines()
        tok = self.peek()
        if tok[0] != "eof":
            raise self.error(tok, f"unexpected {describe_token(tok)} after the kernel body")
        return KernelDef(name, tuple(params), kernel_attrs, body)

    def param(self) -> Param:
        self.take()
        _, value, type_tok = self.definition()
        if not PARAM_TYPES.admits(value.type):
            raise self.error(
                type_tok,
                f"type {value.type.text} is not allowed for kernel params; allowed: {PARAM_TYPES.text}",
            )
        at = self.peek()
        if value.type.is_ptr:
            raws = self.raw_attrs(PARAM_ATTRS) if self.at_punct("{") else []
            attrs = self.attrs_for(PARAM_ATTRS, raws, at, f"param %{value.id}", None)
        elif self.at_punct("{"):
            raise self.error(at, "attributes apply only to pointer params")
        else:
            attrs = {}
        self.expect_end_of_line()
        self.visible[value.id] = value
        return Param(value, attrs)

    def region_ops(self, depth: int) -> list[Op]:
        """Ops up to and including the closing '}' of a region at depth."""
        ops: list[Op] = []
        results_here: list[int] = []
        while True:
            self.skip_blank_lines()
            tok = self.peek()
            if tok[0] == "punct" and tok[1] == "}":
                self.take()
                break
            if tok[0] == "eof":
                raise self.error(tok, "expected '}' before end of input")
            op = self.op(depth)
            ops.append(op)
            results_here.extend(value.id for value in op.results)
        for value_id in results_here:
            del self.visible[value_id]
        return ops

    def op(self, depth: int) -> Op:
        results: list[Value] = []
        if self.peek()[0] == "value":
            while True:
                results.append(self.definition()[1])
                if not self.at_punct(","):
                    break
                self.take()
            self.expect_punct("=")
        name_tok = self.take()
        if name_tok[0] != "ident":
            raise self.error(name_tok, f"expected an op name, found {describe_token(name_tok)}")
        opdef = OP_BY_NAME.get(name_tok[1])
        if opdef is None:
            raise self.error(name_tok, f"unknown op '{echo(name_tok[1])}'")
        operands: list[Value] = []
        if self.peek()[0] == "value":
            while True:
                operands.append(self.use(self.take()))
                if not self.at_punct(","):
                    break
                self.take()
        try:
            check_result_count(opdef, len(results))
            check_operand_count(opdef, len(operands))
        except OpCheckError as exc:
            raise self.error(name_tok, f"{opdef.name} {exc.detail}") from None
        at = self.peek()
        raws = self.raw_attrs(opdef.attrs) if self.at_punct("{") else []
        num_type = results[0].type if results else None
        attrs = self.attrs_for(opdef.attrs, raws, at, opdef.name, num_type)
        regions = self.regions(opdef, depth)
        self.expect_end_of_line()
        for value in results:
            self.visible[value.id] = value
        return Op(opdef.name, tuple(operands), tuple(results), attrs, tuple(regions))

    def regions(self, opdef: OpDef, depth: int) -> list[Region]:
        regions: list[Region] = []
        while self.peek()[0] == "ident":
            name_tok = self.take()
            index = len(regions)
            if index >= len(opdef.regions):
                raise self.error(
                    name_tok,
                    f"unexpected '{echo(name_tok[1])}': {opdef.name} has "
                    f"{len(opdef.regions)} region{'s' if len(opdef.regions) != 1 else ''}",
                )
            expected = opdef.regions[index].name
            if name_tok[1] != expected:
                raise self.error(name_tok, f"expected region '{expected}', found '{echo(name_tok[1])}'")
            args: list[Value] = []
            if self.at_punct("("):
                self.take()
                if not self.at_punct(")"):
                    while True:
                        args.append(self.definition()[1])
                        if not self.at_punct(","):
                            break
                        self.take()
                self.expect_punct(")")
            brace = self.expect_punct("{")
            if depth + 1 > MAX_REGION_DEPTH:
                raise self.error(brace, f"region nesting deeper than {MAX_REGION_DEPTH}")
            self.expect_end_of_line()
            for value in args:
                self.visible[value.id] = value
            ops = self.region_ops(depth + 1)
            for value in args:
                del self.visible[value.id]
            regions.append(Region(tuple(args), ops))
        if len(regions) != len(opdef.regions):
            missing = opdef.regions[len(regions)].name
            raise self.error(self.peek(), f"{opdef.name} needs region '{missing}'")
        return regions
