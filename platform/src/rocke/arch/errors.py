"""Exceptions raised by rocke.arch; each carries one fixed, plain message."""

from __future__ import annotations


class _PlainKeyError(KeyError):
    """A KeyError whose str() is its message (KeyError would quote it)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class UnknownArchError(_PlainKeyError, ValueError):
    """An arch name that is not in archs.toml."""


class UnknownMmaOpError(_PlainKeyError, ValueError):
    """An MMA op id that is not in mma.toml."""


class UnknownFeatureError(_PlainKeyError, ValueError):
    """A feature string that archs.toml does not declare."""


class ArchDataError(ValueError):
    """archs.toml or mma.toml is malformed."""


class LayoutExprError(ValueError):
    """A layout formula that does not parse or cannot be evaluated."""
