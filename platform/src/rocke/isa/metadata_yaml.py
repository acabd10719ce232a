"""A small parser for the YAML subset LLVM prints in ``.amdgpu_metadata``.

Supported: block mappings and block sequences by indentation (including
``- key: value`` items and sequences at their parent key's indentation),
plain scalars, single- and double-quoted scalars, flow sequences of scalars
(``[ 1, 2 ]``) and the empty flow mapping ``{}``; ``---`` / ``...`` document
markers and ``#`` comment lines are skipped. Everything else (anchors, tags,
block scalars, nested flow collections, tabs) is refused with a
``ResourceParseError`` naming the line, never guessed at.

Scalars stay strings; callers convert the fields they read. Mappings keep
source order (the order LLVM printed).
"""

from __future__ import annotations

from dataclasses import dataclass

from rocke.isa.errors import ResourceParseError

YamlValue = dict[str, "YamlValue"] | list["YamlValue"] | str | None


@dataclass
class _Line:
    indent: int
    text: str
    number: int  # 1-based, for messages


def _fail(line: _Line | None, what: str) -> ResourceParseError:
    where = "end of metadata" if line is None else f"metadata line {line.number}"
    return ResourceParseError(f"{where}: {what}")


def _lines(text: str) -> list[_Line]:
    out = []
    for number, raw in enumerate(text.split("\n"), start=1):
        body = raw.rstrip(" \r")
        stripped = body.lstrip(" ")
        if not body.strip(" \t") or stripped.startswith("#") or stripped in ("---", "..."):
            continue
        if stripped.startswith("\t"):
            raise _fail(_Line(0, body, number), "tab in indentation")
        out.append(_Line(len(body) - len(stripped), stripped, number))
    return out


def _is_item(text: str) -> bool:
    return text == "-" or text.startswith("- ")


_DQ_ESCAPES = {"\\": "\\", '"': '"', "/": "/", "n": "\n", "t": "\t", "r": "\r", "0": "\0"}


def _double_quoted(text: str, line: _Line) -> tuple[str, int]:
    """Parse ``"..."`` at the start of ``text``; returns (value, index after closing quote)."""
    out = []
    i = 1
    while i < len(text):
        ch = text[i]
        if ch == '"':
            return "".join(out), i + 1
        if ch == "\\":
            if i + 1 >= len(text):
                break
            esc = text[i + 1]
            if esc in _DQ_ESCAPES:
                out.append(_DQ_ESCAPES[esc])
                i += 2
                continue
            width = {"x": 2, "u": 4, "U": 8}.get(esc)
            digits = text[i + 2 : i + 2 + width] if width else ""
            if not width or len(digits) != width or any(c not in "0123456789abcdefABCDEF" for c in digits):
                raise _fail(line, "unsupported escape in double-quoted scalar")
            out.append(chr(int(digits, 16)))
            i += 2 + width
            continue
        out.append(ch)
        i += 1
    raise _fail(line, "unterminated double-quoted scalar")


def _single_quoted(text: str, line: _Line) -> tuple[str, int]:
    out = []
    i = 1
    while i < len(text):
        ch = text[i]
        if ch == "'":
            if text[i + 1 : i + 2] == "'":
                out.append("'")
                i += 2
                continue
            return "".join(out), i + 1
        out.append(ch)
        i += 1
    raise _fail(line, "unterminated single-quoted scalar")


def _quoted(text: str, line: _Line) -> tuple[str, int]:
    return _double_quoted(text, line) if text[0] == '"' else _single_quoted(text, line)


def _plain(text: str, line: _Line) -> str:
    cut = text.find(" #")
    value = (text if cut < 0 else text[:cut]).rstrip(" ")
    if value[:1] in ("&", "*", "!", "|", ">", "%", "@", "`"):
        raise _fail(line, "unsupported YAML construct")
    return value


def _scalar_text(text: str, line: _Line) -> str:
    if text[0] in "'\"":
        value, end = _quoted(text, line)
        rest = text[end:].strip(" ")
        if rest and not rest.startswith("#"):
            raise _fail(line, "text after quoted scalar")
        return value
    return _plain(text, line)


def _flow_sequence(text: str, line: _Line) -> list[YamlValue]:
    body = _plain(text, line)
    if not body.endswith("]"):
        raise _fail(line, "unterminated flow sequence")
    inner = body[1:-1].strip(" ")
    if not inner:
        return []
    items: list[YamlValue] = []
    for part in inner.split(","):
        item = part.strip(" ")
        if not item or item[0] in "[{":
            raise _fail(line, "unsupported flow sequence item")
        items.append(_scalar_text(item, line))
    return items


def _value(text: str, line: _Line) -> YamlValue:
    if text.startswith("["):
        return _flow_sequence(text, line)
    if text.startswith("{"):
        if _plain(text, line).replace(" ", "") == "{}":
            return {}
        raise _fail(line, "unsupported flow mapping")
    return _scalar_text(text, line)


def _split_key(line: _Line) -> tuple[str, str]:
    text = line.text
    if text[0] in "'\"":
        key, end = _quoted(text, line)
        rest = text[end:]
        if not rest.startswith(":") or (len(rest) > 1 and rest[1] != " "):
            raise _fail(line, "expected ':' after quoted key")
        return key, rest[1:].strip(" ")
    cut = text.find(": ")
    if cut < 0:
        if not text.endswith(":"):
            raise _fail(line, "expected 'key: value'")
        cut = len(text) - 1
    return text[:cut].rstrip(" "), text[cut + 1 :].strip(" ")


#: Deepest nesting accepted; LLVM's metadata nests four levels, and untrusted text must
#: not exhaust the recursion limit.
MAX_DEPTH = 32


class _Parser:
    def __init__(self, lines: list[_Line]) -> None:
        self.lines = lines
        self.pos = 0
        self.depth = 0

    def peek(self) -> _Line | None:
        return self.lines[self.pos] if self.pos < len(self.lines) else None

    def node(self, indent: int) -> YamlValue:
        line = self.peek()
        assert line is not None and line.indent == indent
        return self.sequence(indent) if _is_item(line.text) else self.mapping(indent)

    def enter(self, line: _Line) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _fail(line, f"nesting deeper than {MAX_DEPTH} levels")

    def nested(self, parent: _Line, allow_same_indent_sequence: bool) -> YamlValue:
        """The block value of a ``key:`` or ``-`` line with nothing after it."""
        nxt = self.peek()
        if nxt is not None and nxt.indent > parent.indent:
            return self.node(nxt.indent)
        if (
            allow_same_indent_sequence
            and nxt is not None
            and nxt.indent == parent.indent
            and _is_item(nxt.text)
        ):
            return self.sequence(nxt.indent)
        return None

    def mapping(self, indent: int) -> dict[str, YamlValue]:
        line = self.peek()
        assert line is not None
        self.enter(line)
        out: dict[str, YamlValue] = {}
        while (line := self.peek()) is not None and line.indent == indent and not _is_item(line.text):
            key, rest = _split_key(line)
            if key in out:
                raise _fail(line, f"duplicate key {key}")
            self.pos += 1
            out[key] = _value(rest, line) if rest else self.nested(line, allow_same_indent_sequence=True)
        self.expect_dedent(indent)
        self.depth -= 1
        return out

    def sequence(self, indent: int) -> list[YamlValue]:
        line = self.peek()
        assert line is not None
        self.enter(line)
        out: list[YamlValue] = []
        while (line := self.peek()) is not None and line.indent == indent and _is_item(line.text):
            rest = line.text[1:].lstrip(" ")
            if not rest:
                self.pos += 1
                out.append(self.nested(line, allow_same_indent_sequence=False))
                continue
            column = indent + len(line.text) - len(rest)
            if rest.startswith("- ") or rest == "-":
                raise _fail(line, "unsupported nested sequence on one line")
            if rest[0] not in "'\"[{" and (": " in rest or rest.endswith(":")):
                # "- key: value" opens a mapping whose keys sit at the column of "key".
                self.lines[self.pos] = _Line(column, rest, line.number)
                out.append(self.mapping(column))
                continue
            self.pos += 1
            out.append(_value(rest, line))
        self.expect_dedent(indent)
        self.depth -= 1
        return out

    def expect_dedent(self, indent: int) -> None:
        line = self.peek()
        if line is not None and line.indent > indent:
            raise _fail(line, "unexpected indentation")


def parse_yaml(text: str) -> YamlValue:
    """Parse one YAML document of the supported subset (see module docstring)."""
    lines = _lines(text)
    if not lines:
        return None
    parser = _Parser(lines)
    if lines[0].indent != 0:
        raise _fail(lines[0], "document must start at column 0")
    value = parser.node(0)
    if parser.peek() is not None:
        raise _fail(parser.peek(), "unexpected content")
    return value
