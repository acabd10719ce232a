"""Exceptions of rocke.ir. Messages are plain ASCII and deterministic so a C++ twin can match them."""

from __future__ import annotations


class ParseError(ValueError):
    """Malformed rocke.ir/1 text. str(e) is "line L, col C: <what>" (1-based line and column)."""

    def __init__(self, line: int, col: int, what: str) -> None:
        self.line = line
        self.col = col
        self.what = what
        super().__init__(f"line {line}, col {col}: {what}")


class VerifyError(ValueError):
    """A KernelDef breaks an IR rule. str(e) is "[rule] <where>: <what>"."""

    def __init__(self, rule: str, where: str, what: str) -> None:
        self.rule = rule
        self.where = where
        self.what = what
        super().__init__(f"[{rule}] {where}: {what}")


class OpCheckError(Exception):
    """Internal: one op failed a table check. rule is the verifier rule name; detail has no op prefix.

    The Builder turns it into TypeError (or ValueError for attribute values), the verifier into
    VerifyError, the parser into ParseError.
    """

    def __init__(self, rule: str, detail: str) -> None:
        self.rule = rule
        self.detail = detail
        super().__init__(f"[{rule}] {detail}")
