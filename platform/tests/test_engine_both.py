"""`--engine both` means both: the C++ family builder for `rocke emit`, the C++ parser on the
user's own text for `rocke lower`; any difference is the mismatch error (exit 1)."""

from __future__ import annotations

import pytest
import rocke_engine

from rocke.cli import app
from rocke.engine import EngineMismatchError, lower_text
from rocke.ir import ParseError, print_kernel
from rocke.ir.samples import sample_kernels


def _run(argv, capsys):
    try:
        code = app.main(argv)
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def test_emit_both_agrees_and_runs_the_cpp_builder(monkeypatch, capsys):
    calls = []
    real = rocke_engine.emit_family

    def spy(name, kv, arch, flavors):
        calls.append((name, kv, arch))
        return real(name, kv, arch, flavors)

    monkeypatch.setattr(rocke_engine, "emit_family", spy)
    code, out, err = _run(["emit", "gemm", "--config", "0", "--flavor", "llvm22", "--engine", "both"], capsys)
    assert code == 0, err
    assert out.startswith("target datalayout") and calls and calls[0][0] == "gemm"


def test_emit_both_reports_a_cpp_builder_difference(monkeypatch, capsys):
    real = rocke_engine.emit_family

    def altered(name, kv, arch, flavors):
        ir, ll = real(name, kv, arch, flavors)
        return ir.replace("kernel @", "kernel @x", 1), ll

    monkeypatch.setattr(rocke_engine, "emit_family", altered)
    code, _, err = _run(["emit", "gemm", "--config", "0", "--flavor", "llvm22", "--engine", "both"], capsys)
    assert code == 1 and "python and cpp engines differ" in err and "(IR)" in err and err.count("\n") == 1


def test_emit_both_reports_a_refusal_in_one_engine_only(monkeypatch, capsys):
    def refuse(name, kv, arch, flavors):
        raise ValueError("refused by the C++ twin only")

    monkeypatch.setattr(rocke_engine, "emit_family", refuse)
    code, _, err = _run(["emit", "gemm", "--config", "0", "--ir", "--engine", "both"], capsys)
    assert code == 1 and "cpp: refused by the C++ twin only" in err


def test_emit_cpp_uses_the_cpp_builder_only(monkeypatch, capsys):
    from rocke.cli import emit_cmd

    monkeypatch.setattr(emit_cmd, "emit_python", lambda *a: pytest.fail("the Python engine ran"))
    code, out, err = _run(["emit", "gemm", "--config", "0", "--ir", "--engine", "cpp"], capsys)
    assert code == 0 and out.startswith("rocke.ir/1\n"), err


def test_lower_both_hands_the_users_text_to_the_cpp_parser(tmp_path, monkeypatch, capsys):
    text = print_kernel(sample_kernels()["axpy"])
    odd = text.replace("\n", "\n\n", 3).replace(" = ", "  =  ")  # valid, but not printer output
    path = tmp_path / "k.rir"
    path.write_text(odd)
    seen = []
    real = rocke_engine.lower

    def spy(ir_text, arch, flavor):
        seen.append(ir_text)
        return real(ir_text, arch, flavor)

    monkeypatch.setattr(rocke_engine, "lower", spy)
    code, out, err = _run(["lower", str(path), "--arch", "gfx942", "--flavor", "llvm22", "--engine", "both"], capsys)
    assert code == 0, err
    assert seen == [odd.encode()] and "define amdgpu_kernel" in out


def test_lower_text_both_compares_refusals():
    with pytest.raises(ParseError, match="expected version header"):
        lower_text(b"hello\n", arch="gfx942", flavor="llvm22", engine="both")


def test_lower_text_both_reports_a_parser_difference(monkeypatch):
    def accepts_anything(ir_text, arch, flavor):
        return "target triple\n"

    monkeypatch.setattr(rocke_engine, "lower", accepts_anything)
    with pytest.raises(EngineMismatchError, match="python: ParseError: line 1, col 1: expected version header"):
        lower_text(b"hello\n", arch="gfx942", flavor="llvm22", engine="both")
