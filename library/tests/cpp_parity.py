"""Shared helpers of the C++ parity tests: both engines' outcome for one spec, and the three-way
(Python, bindings, native emitter) verdicts of a family's config file."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

import pytest

from rocke.families.configs import family_configs
from rocke.families.registry import Family
from rocke.gates.emitters import emit_cpp, emit_native, emit_python
from rocke.gates.parity import PASSING, judge
from rocke.ir import print_kernel


def library_engine() -> Any:
    """The installed rocke_library_engine (a parity test without it fails, it does not skip)."""
    import rocke_library_engine

    return rocke_library_engine


def outcome(run: Callable[[], str]) -> tuple[str, str]:
    """("ok", IR text) or (kind, message) of a refusal; kind says which built-ins it is."""
    try:
        return "ok", run()
    except (KeyError, ValueError) as exc:
        kind = "+".join(name for name, cls in (("KeyError", KeyError), ("ValueError", ValueError))
                        if isinstance(exc, cls))
        return kind, str(exc.args[0]) if exc.args else ""


def same(family: Family, kv: str, arch: str) -> tuple[str, str]:
    """The common outcome of both engines; on a difference in built IR, name the first differing line."""
    want = outcome(lambda: print_kernel(family.build(family.spec.from_kv(kv), arch)))  # type: ignore[misc, union-attr]
    got = outcome(lambda: library_engine().build_family(family.name, kv, arch))
    if got != want and got[0] == want[0] == "ok":
        py_lines, cpp_lines = want[1].splitlines(), got[1].splitlines()
        first = next((i for i, (p, c) in enumerate(zip(py_lines, cpp_lines, strict=False)) if p != c),
                     min(len(py_lines), len(cpp_lines)))
        pytest.fail(f"{arch} {kv}: first difference at line {first + 1}:\n"
                    f"  python: {py_lines[first] if first < len(py_lines) else '<end>'}\n"
                    f"  c++:    {cpp_lines[first] if first < len(cpp_lines) else '<end>'}")
    assert got == want, f"{arch} {kv}"
    return want


def config_verdicts(family: Family) -> list[tuple[int, str, str]]:
    """(line number, verdict, detail) of every config: Python engine vs bindings vs native emitter,
    IR and both flavors' .ll byte for byte (the parity gate's judge)."""
    bindir = os.path.dirname(sys.executable)  # the venv's scripts, where the emitter is installed
    if bindir not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = bindir + os.pathsep + os.environ.get("PATH", "")
    lines = family_configs(family)
    native = emit_native(family)
    assert len(native) == len(lines), f"native emitter: {len(native)} records for {len(lines)} configs"
    verdicts = []
    for line, from_native in zip(lines, native, strict=True):
        outs = {"python": emit_python(family, line), "cpp": emit_cpp(family, line), "native": from_native}
        verdict, detail = judge(line, outs)
        verdicts.append((line.lineno, verdict, detail))
    return verdicts


def assert_all_pass(verdicts: list[tuple[int, str, str]]) -> None:
    bad = [f"line {lineno}: {verdict} {detail}" for lineno, verdict, detail in verdicts if verdict not in PASSING]
    assert not bad, "\n".join(bad)
    assert any(verdict == "identical" for _, verdict, _ in verdicts)
