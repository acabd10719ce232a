"""The engine switch: cpp never falls back to Python, both returns only identical bytes."""

import types

import pytest

from rocke.engine import switch
from rocke.ir.samples import sample_kernels


def _fake_engine(lower=None):
    module = types.SimpleNamespace(version=lambda: "0.0.0")
    if lower is not None:
        module.lower = lower
    return module


@pytest.fixture
def axpy():
    return sample_kernels()["axpy"]


def test_cpp_without_a_lowerer_raises_instead_of_falling_back(monkeypatch, axpy):
    monkeypatch.setattr(switch, "native_engine", lambda: _fake_engine())
    with pytest.raises(switch.EngineUnavailableError, match="has no C\\+\\+ lowerer"):
        switch.lower(axpy, arch="gfx942", flavor="llvm22", engine="cpp")


def test_cpp_receives_the_printed_ir_text(monkeypatch, axpy):
    seen = {}

    def fake_lower(text, arch, flavor):
        seen.update(text=text, arch=arch, flavor=flavor)
        return "; cpp\n"

    monkeypatch.setattr(switch, "native_engine", lambda: _fake_engine(fake_lower))
    assert switch.lower(axpy, arch="gfx1100", flavor="llvm20", engine="cpp") == "; cpp\n"
    assert seen["text"].startswith("rocke.ir/1\n") and (seen["arch"], seen["flavor"]) == ("gfx1100", "llvm20")


def test_both_raises_on_a_difference_and_shows_the_first_differing_line(monkeypatch, axpy):
    python_text = switch.python_lower(axpy, arch="gfx942", flavor="llvm22")
    lines = python_text.splitlines(keepends=True)
    tampered = "".join([*lines[:3], "; tampered\n", *lines[4:]])
    monkeypatch.setattr(switch, "native_engine", lambda: _fake_engine(lambda t, a, f: tampered))
    with pytest.raises(switch.EngineMismatchError) as info:
        switch.lower(axpy, arch="gfx942", flavor="llvm22", engine="both")
    assert "first difference at line 4" in str(info.value)
    assert "+ cpp:    ; tampered" in str(info.value)


def test_both_returns_identical_bytes(monkeypatch, axpy):
    python_text = switch.python_lower(axpy, arch="gfx942", flavor="llvm22")
    monkeypatch.setattr(switch, "native_engine", lambda: _fake_engine(lambda t, a, f: python_text))
    assert switch.lower(axpy, arch="gfx942", flavor="llvm22", engine="both") == python_text


def test_rocke_engine_env_selects_the_default(monkeypatch):
    monkeypatch.setenv("ROCKE_ENGINE", "both")
    assert switch.default_engine() == "both"
    monkeypatch.setenv("ROCKE_ENGINE", "rust")
    with pytest.raises(ValueError, match="ROCKE_ENGINE='rust' is not an engine; allowed: python, cpp, both"):
        switch.default_engine()


def test_unknown_engine_argument(axpy):
    with pytest.raises(ValueError, match="allowed: python, cpp, both"):
        switch.lower(axpy, arch="gfx942", flavor="llvm22", engine="fortran")


def test_first_difference_reports_a_missing_tail():
    assert "- python: c" in switch.first_difference("a\nb\nc\n", "a\nb\n")
    assert "+ cpp:    <end of text>" in switch.first_difference("a\nb\nc\n", "a\nb\n")
