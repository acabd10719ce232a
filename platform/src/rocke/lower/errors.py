"""LowerError: a verified kernel the lowerer still cannot write for the chosen arch and flavor."""

from __future__ import annotations


class LowerError(ValueError):
    """Raised before any LLVM sees text. The message is `WHERE: WHAT` with fixed wording; WHERE is
    `kernel @NAME` or `OPNAME[ %FIRSTRESULT] at PATH` as in the verifier (e.g. `body[9].then[0]`)."""

    def __init__(self, where: str, what: str) -> None:
        super().__init__(f"{where}: {what}")
        self.where = where
        self.what = what
