"""The binding string fuzz both packages' test suites run (platform's rocke_engine bindings and a
library's engine module against the Python APIs they twin): hypothesis strategies for a string
argument, and the outcome a call is compared on.

Imports hypothesis, a test requirement: only test suites import this module.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

ANY_CHAR = st.characters(exclude_categories=())  # surrogates included
SPECIAL = st.sampled_from(["\x00", "\udcff", "\ud800", "\u00e9", "\u20ac", "\U0001f600", "\n", " ", "=", "'", "\\"])


def outcome(fn: Any, *args: Any) -> tuple[str, Any]:
    """("ok", result), or the exception's type name and text: what the twins must agree on."""
    try:
        return ("ok", fn(*args))
    except Exception as exc:  # the type and the text are what is compared
        return (type(exc).__name__, str(exc))


@st.composite
def variants(draw: Any, valid: str) -> str:
    """A valid value with a few special or arbitrary characters spliced in, or any text at all
    (short, or 500..3000 characters)."""
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(st.text(ANY_CHAR, max_size=40))
    if kind == 1:
        return draw(st.text(ANY_CHAR, min_size=500, max_size=3000))
    text = valid
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        piece = draw(SPECIAL if kind == 2 else st.text(ANY_CHAR, min_size=1, max_size=4))
        text = text[:at] + piece + text[at:]
    return text
