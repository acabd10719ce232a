"""IR types: values compared by value, hashable and immutable.

Text forms: scalars i1 i8 i16 i32 i64 f16 bf16 f32, vectors vec<f16x4>, pointers ptr<f16, global>
(address spaces global, constant, lds, private) and the buffer resource rsrc. The text form
identifies a type, so equality and hashing use it. The scalar set and the vector/pointer rules
come from data/ir.toml.
"""

from __future__ import annotations

from typing import Any

from .errors import ParseError
from .facts import IR_FACTS
from .lexer import Token, TokenStream, check_characters, echo


class Type:
    """Base of all IR types. Compare with ==; str(t) is the text form."""

    __slots__ = ("_hash", "category", "text")
    text: str
    category: str  # int, float, vec_int, vec_float, ptr_<space>, rsrc: the constraint classes

    def __init__(self, text: str, category: str) -> None:
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "category", category)
        object.__setattr__(self, "_hash", hash(text))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"type {self.text} is immutable")

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Type) and self.text == other.text)

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Type({self.text})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (parse_type, (self.text,))

    # Shape queries shared by all types; subclasses override what applies to them.
    @property
    def is_scalar(self) -> bool:
        return False

    @property
    def is_int(self) -> bool:
        """Integer scalar."""
        return False

    @property
    def is_float(self) -> bool:
        """Float scalar."""
        return False

    @property
    def is_vec(self) -> bool:
        return False

    @property
    def is_ptr(self) -> bool:
        return False

    @property
    def is_rsrc(self) -> bool:
        return False


class ScalarType(Type):
    """An integer or float scalar."""

    __slots__ = ("bits", "exp_bits", "kind", "man_bits", "name")
    name: str
    kind: str
    bits: int
    exp_bits: int
    man_bits: int

    def __init__(self, name: str, kind: str, bits: int, exp_bits: int, man_bits: int) -> None:
        super().__init__(name, kind)
        for field, value in (
            ("name", name),
            ("kind", kind),
            ("bits", bits),
            ("exp_bits", exp_bits),
            ("man_bits", man_bits),
        ):
            object.__setattr__(self, field, value)

    @property
    def is_scalar(self) -> bool:
        return True

    @property
    def is_int(self) -> bool:
        return self.kind == "int"

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def element(self) -> ScalarType:
        """The scalar itself (vectors answer their element type)."""
        return self

    @property
    def lanes(self) -> int:
        return 1

    @property
    def total_bits(self) -> int:
        return self.bits


class VecType(Type):
    """vec<ELEMxN>."""

    __slots__ = ("elem", "lanes")
    elem: ScalarType
    lanes: int

    def __init__(self, elem: ScalarType, lanes: int) -> None:
        super().__init__(f"vec<{elem.name}x{lanes}>", "vec_" + elem.kind)
        object.__setattr__(self, "elem", elem)
        object.__setattr__(self, "lanes", lanes)

    @property
    def is_vec(self) -> bool:
        return True

    @property
    def element(self) -> ScalarType:
        return self.elem

    @property
    def total_bits(self) -> int:
        return self.elem.bits * self.lanes


class PtrType(Type):
    """ptr<PTEE, SPACE>; indexing a pointer steps in units of its pointee."""

    __slots__ = ("pointee", "space")
    pointee: ScalarType | VecType
    space: str

    def __init__(self, pointee: ScalarType | VecType, space: str) -> None:
        super().__init__(f"ptr<{pointee.text}, {space}>", "ptr_" + space)
        object.__setattr__(self, "pointee", pointee)
        object.__setattr__(self, "space", space)

    @property
    def is_ptr(self) -> bool:
        return True


class RsrcType(Type):
    """A raw buffer resource (128-bit descriptor); built by mem.make_rsrc."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__("rsrc", "rsrc")

    @property
    def is_rsrc(self) -> bool:
        return True


SCALAR_TYPES: tuple[ScalarType, ...] = tuple(
    ScalarType(row["name"], row["kind"], row["bits"], row["exp_bits"], row["man_bits"])
    for row in IR_FACTS["scalar"]
)
_SCALARS: dict[str, ScalarType] = {t.name: t for t in SCALAR_TYPES}
ADDRESS_SPACES: tuple[str, ...] = tuple(row["name"] for row in IR_FACTS["address_space"])
MIN_LANES: int = IR_FACTS["vector"]["min_lanes"]
MAX_LANES: int = IR_FACTS["vector"]["max_lanes"]
_VEC_ELEMS: tuple[str, ...] = tuple(IR_FACTS["vector"]["elems"])
_PTR_SCALAR_ELEMS: tuple[str, ...] = tuple(IR_FACTS["pointer"]["scalar_elems"])
_PTR_VECTOR_ELEMS: bool = IR_FACTS["pointer"]["vector_elems"]

i1 = _SCALARS["i1"]
i8 = _SCALARS["i8"]
i16 = _SCALARS["i16"]
i32 = _SCALARS["i32"]
i64 = _SCALARS["i64"]
f16 = _SCALARS["f16"]
bf16 = _SCALARS["bf16"]
f32 = _SCALARS["f32"]
rsrc = RsrcType()

_INTERNED: dict[tuple[Any, ...], Type] = {}


def scalar_type(name: str) -> ScalarType:
    """The scalar type named name; ValueError listing the known names otherwise."""
    found = _SCALARS.get(name) if isinstance(name, str) else None
    if found is None:
        known = ", ".join(t.name for t in SCALAR_TYPES)
        raise ValueError(f"unknown scalar type '{name}'; known: {known}")
    return found


def vec(elem: ScalarType, lanes: int) -> VecType:
    """vec<elem x lanes>. TypeError for a bad element type, ValueError for a bad lane count."""
    if not isinstance(elem, ScalarType):
        what = elem.text if isinstance(elem, Type) else type(elem).__name__
        raise TypeError(f"vec: element type must be a scalar type, got {what}")
    if elem.name not in _VEC_ELEMS:
        raise TypeError(f"vec: element type {elem.name} is not allowed; allowed: {', '.join(_VEC_ELEMS)}")
    if isinstance(lanes, bool) or not isinstance(lanes, int):
        raise TypeError(f"vec: lane count must be an int, got {type(lanes).__name__}")
    if not MIN_LANES <= lanes <= MAX_LANES:
        raise ValueError(
            f"vec: lane count {lanes} of vec<{elem.name}x{lanes}> is out of range {MIN_LANES}..{MAX_LANES}"
        )
    key = ("vec", elem.name, lanes)
    found = _INTERNED.get(key)
    if found is None:
        found = _INTERNED[key] = VecType(elem, lanes)
    return found  # type: ignore[return-value]


def ptr(pointee: ScalarType | VecType, space: str) -> PtrType:
    """ptr<pointee, space>. TypeError for a bad pointee, ValueError for an unknown address space."""
    if isinstance(pointee, ScalarType):
        if pointee.name not in _PTR_SCALAR_ELEMS:
            raise TypeError(
                f"ptr: pointee type {pointee.name} is not allowed; allowed: "
                f"{', '.join(_PTR_SCALAR_ELEMS)} or a vector type"
            )
    elif not (isinstance(pointee, VecType) and _PTR_VECTOR_ELEMS):
        what = pointee.text if isinstance(pointee, Type) else type(pointee).__name__
        raise TypeError(f"ptr: pointee must be a scalar or vector type, got {what}")
    if space not in ADDRESS_SPACES:
        shown = space if isinstance(space, str) else type(space).__name__
        raise ValueError(f"ptr: unknown address space '{shown}'; known: {', '.join(ADDRESS_SPACES)}")
    key = ("ptr", pointee.text, space)
    found = _INTERNED.get(key)
    if found is None:
        found = _INTERNED[key] = PtrType(pointee, space)
    return found  # type: ignore[return-value]


def parse_type(text: str) -> Type:
    """Parse a type's text form (e.g. "ptr<vec<f16x4>, lds>"). Raises ParseError (a ValueError)."""
    if not isinstance(text, str):
        raise TypeError(f"parse_type: expected str, got {type(text).__name__}")
    check_characters(text)
    tokens = TokenStream(text)
    ty = parse_type_stream(tokens)
    kind, tok, line, col = tokens.peek()
    if kind != "eof":
        raise ParseError(line, col, f"unexpected '{echo(tok)}' after type {ty.text}")
    return ty


def parse_type_stream(tokens: TokenStream, pointee: bool = False) -> Type:
    """Read one type from the stream (consuming exactly its tokens). Raises ParseError.

    pointee=True reads the pointee of a ptr<...>, which is never a pointer (this also bounds the
    nesting depth of type text to two).
    """
    kind, text, line, col = tokens.peek()
    if kind != "ident":
        raise ParseError(line, col, f"expected a type, found {describe_token(tokens.peek())}")
    if pointee and text in ("ptr", "rsrc"):
        got = "rsrc" if text == "rsrc" else "a pointer type"
        raise ParseError(line, col, f"ptr: pointee must be a scalar or vector type, got {got}")
    scalar = _SCALARS.get(text)
    if scalar is not None:
        tokens.take()
        return scalar
    if text == "rsrc":
        tokens.take()
        return rsrc
    if text == "vec":
        tokens.take()
        _expect_punct(tokens, "<")
        kind, inner, line, col = tokens.peek()
        elem_name, sep, lanes_text = inner.rpartition("x")
        if kind != "ident" or not sep or elem_name not in _SCALARS or not _is_small_decimal(lanes_text):
            raise ParseError(
                line, col, f"expected ELEMxN inside vec<...>, found {describe_token(tokens.peek())}"
            )
        try:
            ty: Type = vec(_SCALARS[elem_name], int(lanes_text))
        except (TypeError, ValueError) as exc:
            raise ParseError(line, col, str(exc)) from None
        tokens.take()
        _expect_punct(tokens, ">")
        return ty
    if text == "ptr":
        tokens.take()
        _expect_punct(tokens, "<")
        pointee_line, pointee_col = tokens.peek()[2], tokens.peek()[3]
        pointee_type = parse_type_stream(tokens, pointee=True)
        _expect_punct(tokens, ",")
        kind, space, line, col = tokens.peek()
        if kind != "ident":
            raise ParseError(line, col, f"expected an address space, found {describe_token(tokens.peek())}")
        if space not in ADDRESS_SPACES:
            raise ParseError(
                line, col, f"unknown address space '{echo(space)}'; known: {', '.join(ADDRESS_SPACES)}"
            )
        try:
            ty = ptr(pointee_type, space)  # type: ignore[arg-type]
        except TypeError as exc:
            raise ParseError(pointee_line, pointee_col, str(exc)) from None
        tokens.take()
        _expect_punct(tokens, ">")
        return ty
    raise ParseError(line, col, f"unknown type '{echo(text)}'")


def _is_small_decimal(text: str) -> bool:
    return 0 < len(text) <= 4 and text.isascii() and text.isdigit() and (text == "0" or text[0] != "0")


def _expect_punct(tokens: TokenStream, punct: str) -> None:
    kind, text, line, col = tokens.peek()
    if kind != "punct" or text != punct:
        raise ParseError(line, col, f"expected '{punct}', found {describe_token(tokens.peek())}")
    tokens.take()


def describe_token(token: Token) -> str:
    """How error messages name a token."""
    kind, text = token[0], token[1]
    if kind == "eof":
        return "end of input"
    if kind == "nl":
        return "end of line"
    return f"'{echo(text)}'"
