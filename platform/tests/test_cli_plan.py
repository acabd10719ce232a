"""`rocke plan`: planners found through the rocke.planners entry points (here a planted one: the
platform wheel registers none), exit 0 planned / 1 refused / 2 malformed, --json, and the
engine switch comparing the Python planner with its C++ twin."""

from __future__ import annotations

import sys
import types

import pytest

from rocke.cli import app
from rocke.families import planners
from rocke.families.planners import Planner, get_planner


def _fake(text: str, arch: str) -> tuple[str, str, str]:
    if "bad" in text:
        raise ValueError("toy problem: bad=1: must be 0")
    status = "refused" if "refuse" in text else "planned"
    return f'{{"status": "{status}"}}\n', f"toy on {arch}: {status}\n", status


@pytest.fixture
def toy(monkeypatch):
    cpp = types.ModuleType("toy_engine")
    cpp.plan = lambda kind, text, arch: _fake(text, arch)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "toy_engine", cpp)
    found = {"toy": Planner("toy", "tests", _fake, "toy_engine", ("toy_family",))}
    monkeypatch.setattr(planners, "discover_planners", lambda: found)
    return cpp


def _run(argv, capsys):
    try:
        code = app.main(argv)
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("engine", ["python", "cpp", "both"])
def test_planned_refused_and_malformed(toy, capsys, engine):
    base = ["plan", "toy", "--arch", "gfx942", "--engine", engine]
    agreed = "rocke plan: python and cpp planners agree: plan byte-identical\n" if engine == "both" else ""
    assert _run([*base, "--problem", "a=1"], capsys) == (0, "toy on gfx942: planned\n", agreed)
    assert _run([*base, "--problem", "refuse=1"], capsys) == (1, "toy on gfx942: refused\n", agreed)
    assert _run([*base, "--problem", "a=1", "--json"], capsys)[1] == '{"status": "planned"}\n'
    code, out, err = _run([*base, "--problem", "bad=1"], capsys)
    assert (code, out) == (2, "") and err == "rocke plan: error: toy problem: bad=1: must be 0\n"


def test_a_family_name_reaches_the_kind_it_serves(toy, capsys):
    assert _run(["plan", "toy_family", "--problem", "a=1", "--arch", "gfx950"], capsys)[0] == 0
    with pytest.raises(KeyError, match="unknown problem kind 'nope'; known: toy"):
        get_planner("nope", {"toy": Planner("toy", "tests", _fake)})


def test_engines_that_differ_are_a_mismatch(toy, capsys):
    toy.plan = lambda kind, text, arch: ('{"status": "planned"} \n', "toy: planned\n", "planned")
    code, _out, err = _run(["plan", "toy", "--problem", "a=1", "--arch", "gfx942", "--engine", "both"], capsys)
    assert code == 1 and "python and cpp planners differ for toy" in err
    toy.plan = lambda kind, text, arch: (_ for _ in ()).throw(ValueError("other text"))
    code, _out, err = _run(["plan", "toy", "--problem", "bad=1", "--arch", "gfx942", "--engine", "both"], capsys)
    assert code == 1 and "python: toy problem: bad=1: must be 0; cpp: other text" in err


def test_no_planner_installed_is_one_line(monkeypatch, capsys):
    monkeypatch.setattr(planners, "discover_planners", dict)
    code, _out, err = _run(["plan", "conv_fwd", "--problem", "n=1", "--arch", "gfx942"], capsys)
    assert code == 2 and err == ("rocke plan: error: unknown problem kind 'conv_fwd'; known: none (no planner "
                                 "installed)\n")
