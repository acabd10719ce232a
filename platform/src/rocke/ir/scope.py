"""A context manager that is the active one of its class while its ``with`` block runs (per thread
and asyncio context, through a ContextVar of the class; nested blocks restore the outer one): the
base of the emission scopes ``defer_finish_verify`` (rocke.ir.builder) and ``verify_once``
(rocke.ir.verifier). C++ twins keep a thread-local pointer to the innermost scope instead."""

from __future__ import annotations

from contextvars import ContextVar, Token
from types import TracebackType
from typing import Any, ClassVar, Self


class ContextScope:
    _active: ClassVar[ContextVar[Any]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._active = ContextVar(f"rocke_{cls.__name__}", default=None)

    @classmethod
    def active(cls) -> Self | None:
        """The innermost scope of this class in the current context, or None."""
        return cls._active.get()

    def __enter__(self) -> Self:
        self._token: Token[Any] = type(self)._active.set(self)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        type(self)._active.reset(self._token)
