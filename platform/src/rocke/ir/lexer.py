"""Tokenizer of the rocke.ir/1 text format (everything after the version header).

Tokens are tuples (kind, text, line, col). Kinds: nl, ident, value, sym, str, int, hex, punct, eof.
Spaces separate tokens and are otherwise insignificant; line feeds are tokens.

The parser reads tokens one at a time from a TokenStream (one token of lookahead), so lexing is a
single left-to-right pass and no token list proportional to the input is ever held.
"""

from __future__ import annotations

import re

from .errors import ParseError

Token = tuple[str, str, int, int]

# Matched with .match() at the current position: the leading spaces are skipped, then exactly one
# alternative applies ("eof" at the end, "bad" for any other character), so no match ever fails and
# nothing is rescanned.
_TOKEN = re.compile(
    r" *(?:"
    r"(?P<nl>\n)"
    r"|(?P<ident>[A-Za-z_][A-Za-z0-9_.]*)"
    r"|(?P<value>%[0-9]+)"
    r"|(?P<sym>@[A-Za-z_][A-Za-z0-9_.]*)"
    r'|(?P<str>"[^"\\\n]*")'
    r"|(?P<hex>0x[0-9A-Za-z]*)"
    r"|(?P<int>-?[0-9]+)"
    r"|(?P<punct>[{}()<>,:=])"
    r"|(?P<eof>\Z)"
    r"|(?P<bad>[^ ])"
    r")"
)
_BLANKS = re.compile(r"[ \n]*")
_STRING_STOP = re.compile(r'["\\\n]')
_BAD_CHAR = re.compile(r"[^\n\x20-\x7e]")

MAX_TOKEN_ECHO = 32


def check_characters(text: str) -> None:
    """Refuse anything outside printable ASCII plus LF, at its exact position."""
    bad = _BAD_CHAR.search(text)
    if bad is None:
        return
    pos = bad.start()
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    code = ord(bad.group())
    if code == 0x0D:
        raise ParseError(line, col, "carriage return is not allowed (LF line endings only)")
    if code > 0x7F:
        raise ParseError(line, col, "non-ASCII character (the format is ASCII only)")
    raise ParseError(line, col, f"control character 0x{code:02X} is not allowed")


def echo(text: str) -> str:
    """A token's text for error messages, cut to a bounded length."""
    if len(text) > MAX_TOKEN_ECHO:
        return text[:MAX_TOKEN_ECHO] + "..."
    return text


class TokenStream:
    """Tokens of text[start:], lexed on demand; line numbering starts at first_line, and line_start
    is the offset of that line's first character (columns count from it).

    The caller has already run check_characters on text. After the last token, peek() and take()
    return the eof token forever.
    """

    __slots__ = ("_line", "_line_start", "_next", "_pos", "_text")

    def __init__(self, text: str, start: int = 0, first_line: int = 1, line_start: int | None = None) -> None:
        self._text = text
        self._pos = start
        self._line = first_line
        self._line_start = start if line_start is None else line_start
        self._next = self._lex()

    def peek(self) -> Token:
        return self._next

    def take(self) -> Token:
        tok = self._next
        if tok[0] != "eof":
            self._next = self._lex()
        return tok

    def skip_newlines(self) -> None:
        """Drop nl tokens (blank lines) up to the next other token, in one scan."""
        if self._next[0] != "nl":
            return
        text = self._text
        blanks_end = _BLANKS.match(text, self._pos).end()  # type: ignore[union-attr]
        end = text.rfind("\n", self._pos, blanks_end) + 1  # just after the last line feed
        if end > self._pos:
            self._line += text.count("\n", self._pos, end)
            self._line_start = end
            self._pos = end
        self._next = self._lex()

    def _lex(self) -> Token:
        text = self._text
        m = _TOKEN.match(text, self._pos)
        kind = m.lastgroup  # type: ignore[union-attr]
        pos = m.start(kind)  # type: ignore[union-attr, arg-type]
        col = pos - self._line_start + 1
        self._pos = m.end()  # type: ignore[union-attr]
        if kind == "nl":
            tok = ("nl", "\n", self._line, col)
            self._line += 1
            self._line_start = self._pos
            return tok
        if kind == "bad":
            _raise_lex_error(text, pos, self._line, col)
        return (kind, m.group(kind), self._line, col)  # type: ignore[union-attr, arg-type, return-value]


def tokenize(text: str, start: int = 0, first_line: int = 1) -> list[Token]:
    """All tokens of text[start:] as a list, eof last (tests and tools; the parser streams)."""
    stream = TokenStream(text, start, first_line)
    tokens = [stream.take()]
    while tokens[-1][0] != "eof":
        tokens.append(stream.take())
    return tokens


def _raise_lex_error(text: str, pos: int, line: int, col: int) -> None:
    char = text[pos]
    if char == "%":
        raise ParseError(line, col, "expected digits after '%'")
    if char == "@":
        raise ParseError(line, col, "expected a name after '@'")
    if char == '"':
        found = _STRING_STOP.search(text, pos + 1)
        stop = len(text) if found is None else found.start()
        if stop < len(text) and text[stop] == "\\":
            raise ParseError(line, col + (stop - pos), "backslash is not allowed in strings")
        raise ParseError(line, col, "unterminated string")
    raise ParseError(line, col, f"unexpected character '{char}'")
