"""``rocke.engine.lower``: one call, three engines.

* ``python`` lowers with :mod:`rocke.lower`.
* ``cpp`` prints the kernel as ``rocke.ir/1`` text, lowers it in the C++ engine and
  returns its bytes; it never falls back to Python.
* ``both`` runs the two and returns the text only if it is byte-identical, else
  raises :class:`EngineMismatchError` showing the first differing lines.

``lower_text`` is the same switch for ``rocke.ir/1`` text a user supplied: ``cpp`` hands the
text itself to the C++ parser, and ``both`` parses it in each engine, so a parser difference is a
mismatch too; a refusal is returned only when both engines refuse with the same type and text.

``ROCKE_ENGINE`` overrides the default engine (``python``).
"""

from __future__ import annotations

import os

from rocke.engine.native import EngineUnavailableError, native_engine
from rocke.ir import KernelDef, parse_kernel, print_kernel
from rocke.lower import lower as python_lower

ENGINES = ("python", "cpp", "both")
ENGINE_ENV = "ROCKE_ENGINE"


class EngineMismatchError(AssertionError):
    """The Python and C++ engines produced different bytes for the same request."""


def default_engine() -> str:
    engine = os.environ.get(ENGINE_ENV, "python")
    if engine not in ENGINES:
        raise ValueError(f"{ENGINE_ENV}={engine!r} is not an engine; allowed: {', '.join(ENGINES)}")
    return engine


def first_difference(left: str, right: str, *, context: int = 2) -> str:
    """The first differing line of two texts with a little context, for mismatch reports."""
    a, b = left.splitlines(), right.splitlines()
    for index in range(max(len(a), len(b))):
        la = a[index] if index < len(a) else "<end of text>"
        lb = b[index] if index < len(b) else "<end of text>"
        if la != lb:
            start = max(0, index - context)
            shown = [f"  {line}" for line in a[start:index]]
            return "\n".join([f"first difference at line {index + 1}:", *shown, f"- python: {la}", f"+ cpp:    {lb}"])
    if left != right:
        return "texts differ only in line endings or a final newline"
    return "texts are identical"


def _cpp_lower(text: str, arch: str, flavor: str) -> str:
    engine = native_engine()
    if not hasattr(engine, "lower"):
        raise EngineUnavailableError(
            f"this rocke_engine ({engine.version()}) has no C++ lowerer; use engine='python'"
        )
    return engine.lower(text, arch, flavor)


def lower(kdef: KernelDef, *, arch: str, flavor: str, engine: str | None = None) -> str:
    """Lower ``kdef`` for ``arch`` at ``flavor`` with the chosen engine (see module doc)."""
    engine = default_engine() if engine is None else engine
    if engine not in ENGINES:
        raise ValueError(f"engine {engine!r} is not an engine; allowed: {', '.join(ENGINES)}")
    if engine == "python":
        return python_lower(kdef, arch=arch, flavor=flavor)
    text = print_kernel(kdef)
    if engine == "cpp":
        return _cpp_lower(text, arch, flavor)
    py = python_lower(kdef, arch=arch, flavor=flavor)
    cpp = _cpp_lower(text, arch, flavor)
    if py != cpp:
        raise EngineMismatchError(f"python and cpp engines differ for kernel {kdef.name} "
                                  f"({arch}, {flavor}): {first_difference(py, cpp)}")
    return py


def _outcome(fn) -> tuple[str | None, ValueError | None]:
    try:
        return fn(), None
    except ValueError as exc:  # ParseError, VerifyError, LowerError, UnknownArchError: refusals
        return None, exc


def _refusal_text(exc: ValueError) -> str:
    return f"{type(exc).__name__}: {exc}"


def lower_text(text: str | bytes, *, arch: str, flavor: str, engine: str | None = None) -> str:
    """Parse, verify and lower rocke.ir/1 ``text`` for ``arch`` at ``flavor`` (see module doc)."""
    engine = default_engine() if engine is None else engine
    if engine not in ENGINES:
        raise ValueError(f"engine {engine!r} is not an engine; allowed: {', '.join(ENGINES)}")
    if engine == "python":
        return python_lower(parse_kernel(text), arch=arch, flavor=flavor)
    if engine == "cpp":
        return _cpp_lower(text, arch, flavor)  # type: ignore[arg-type]
    py, py_exc = _outcome(lambda: python_lower(parse_kernel(text), arch=arch, flavor=flavor))
    cpp, cpp_exc = _outcome(lambda: _cpp_lower(text, arch, flavor))  # type: ignore[arg-type]
    if py_exc is not None or cpp_exc is not None:
        py_text = "built" if py_exc is None else _refusal_text(py_exc)
        cpp_text = "built" if cpp_exc is None else _refusal_text(cpp_exc)
        if py_text == cpp_text:
            raise py_exc  # type: ignore[misc]
        raise EngineMismatchError(f"python and cpp engines differ on this input ({arch}, {flavor}): "
                                  f"python: {py_text}; cpp: {cpp_text}")
    if py != cpp:
        raise EngineMismatchError(f"python and cpp engines differ on this input ({arch}, {flavor}): "
                                  f"{first_difference(py, cpp)}")  # type: ignore[arg-type]
    return py  # type: ignore[return-value]
