"""Problems: frozen descriptions of what a caller wants, with one canonical kv text like specs.

A problem is a `Spec` subclass (so the kv text, parsing and error texts are the spec ones, and
`check()` validates it on construction); `FAMILY` is "<kind> problem", which prefixes every
error. `parse(text)` takes the keys a caller gives, fills the optional ones (`defaults`, which
may depend on the given ones), then builds the problem; `to_kv()` prints every key, so
`from_kv(p.to_kv()) == p`. Any error is a `SpecError` (a ValueError): a malformed problem.
C++ twin: rocke_library/dispatch/problem.hpp.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Self

from rocke.families.spec import Spec, SpecError, _parse_value

PROBLEM_DTYPES = ("f16", "bf16", "f32", "f64")
DTYPE_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8}
MAX_SIZE = 2**31 - 1  # sizes and strides are i32 kernel arguments
MAX_ALIGN = 256


@dataclass(frozen=True)
class Problem(Spec):
    """Base of the problem kinds; subclasses set KIND, FAMILY = f"{KIND} problem", their fields,
    `defaults` and `check`."""

    KIND: ClassVar[str] = ""

    @classmethod
    def defaults(cls, given: dict[str, Any]) -> dict[str, Any]:
        """Values of the optional keys, computed from the given ones (a key missing there is left out)."""
        return {}

    @classmethod
    def parse(cls, text: str) -> Self:
        """The problem of a caller's kv text: the pairs checked as Spec.from_kv checks them
        (malformed, unknown, twice, value), the optional keys filled, then missing keys."""
        if not isinstance(text, str):
            raise TypeError(f"{cls.FAMILY}: parse: expected str, got {type(text).__name__}")
        types = cls.field_types()
        given: dict[str, Any] = {}
        for pair in text.split(" ") if text else []:
            key, sep, raw = pair.partition("=")
            if not sep or not key:
                raise SpecError(f"{cls.FAMILY}: malformed pair '{pair}' (expected key=value)")
            if key not in types:
                raise SpecError(f"{cls.FAMILY}: unknown key '{key}'; known keys: {', '.join(sorted(types))}")
            if key in given:
                raise SpecError(f"{cls.FAMILY}: key '{key}' given twice")
            given[key] = _parse_value(cls.FAMILY, key, raw, types[key])
        values = dict(given)
        for key, value in cls.defaults(given).items():
            values.setdefault(key, value)
        for key in sorted(types):
            if key not in values:
                raise SpecError(f"{cls.FAMILY}: missing key '{key}'")
        return cls(**values)

    def dead(self) -> bool:
        """The problem has nothing to compute (its outputs are empty): planned as no launch."""
        return False

    # Shared rules, in the order a check() calls them.
    def check_choice(self, field: str, choices: tuple[str, ...]) -> None:
        if getattr(self, field) not in choices:
            self.fail(field, f"must be one of {', '.join(choices)}")

    def check_range(self, field: str, low: int, high: int = MAX_SIZE) -> None:
        if not low <= getattr(self, field) <= high:
            self.fail(field, f"must be in {low}..{high}")

    def check_align(self, dtype: str) -> None:
        """align: the bytes every buffer's base address is a multiple of (a power of two, at least
        one element)."""
        align, esize = self.align, DTYPE_BYTES[dtype]  # type: ignore[attr-defined]
        if not esize <= align <= MAX_ALIGN or align & (align - 1) != 0:
            self.fail("align", f"must be a power of two in {esize}..{MAX_ALIGN} (bytes; at least one {dtype})")
