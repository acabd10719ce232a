"""Tokenizer of the rocke.ir/1 text format (everything after the version header).

Tokens are tuples (kind, text, line, col). Kinds: nl, ident, value, sym, str, int, hex, punct, eof.
Spaces separate tokens and are otherwise insignificant; line feeds are tokens.
"""

from __future__ import annotations

import re

from .errors import ParseError

Token = tuple[str, str, int, int]

# Leading spaces belong to the match but not to the token; "bad" catches any other character.
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
    r"|(?P<bad>[^ ])"
    r")"
)
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


def tokenize(text: str, start: int = 0, first_line: int = 1) -> list[Token]:
    """Tokens of text[start:], whose first character sits at line first_line, column 1.

    The caller has already run check_characters on text.
    """
    tokens: list[Token] = []
    append = tokens.append
    line = first_line
    line_start = start
    end = start
    for m in _TOKEN.finditer(text, start):
        kind = m.lastgroup
        pos = m.start(kind)  # type: ignore[arg-type]
        end = m.end()
        if kind == "nl":
            append(("nl", "\n", line, pos - line_start + 1))
            line += 1
            line_start = end
        elif kind == "bad":
            _raise_lex_error(text, pos, line, pos - line_start + 1)
        else:
            append((kind, m.group(kind), line, pos - line_start + 1))  # type: ignore[arg-type]
    # trailing spaces after the last token are not matched by finditer when nothing follows them
    append(("eof", "", line, len(text) - line_start + 1))
    return tokens


def _raise_lex_error(text: str, pos: int, line: int, col: int) -> None:
    char = text[pos]
    if char == "%":
        raise ParseError(line, col, "expected digits after '%'")
    if char == "@":
        raise ParseError(line, col, "expected a name after '@'")
    if char == '"':
        stop = pos + 1
        while stop < len(text) and text[stop] not in '"\\\n':
            stop += 1
        if stop < len(text) and text[stop] == "\\":
            raise ParseError(line, col + (stop - pos), "backslash is not allowed in strings")
        raise ParseError(line, col, "unterminated string")
    raise ParseError(line, col, f"unexpected character '{char}'")
