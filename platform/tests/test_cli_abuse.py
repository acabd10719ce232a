"""Every `rocke` verb driven with bad arguments: exit status 2, one error line, never a traceback,
and nothing expensive started before the arguments were checked.

The table below must name every verb the parser knows (a new verb without abuse cases fails
test_every_verb_has_abuse_cases). Cases run in-process with the gates' and the bench's expensive
entry points replaced by tripwires; a few run as real processes to see what a user sees.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from rocke.cli import app

HUGE = "1099511627776"
ARABIC_ONE = "\u0661"  # int() accepts it; the CLI must not


def _sample(tmp: Path) -> Path:
    from rocke.ir import print_kernel
    from rocke.ir.samples import sample_kernels

    path = tmp / "axpy.rir"
    path.write_text(print_kernel(sample_kernels()["axpy"]))
    return path


def _cases(tmp: Path) -> dict[str, list[list[str]]]:
    """verb -> argument lists that must each be refused with exit 2 and one line."""
    rir = str(_sample(tmp))
    a_file = str(tmp / "plain.txt")
    Path(a_file).write_text("x\n")
    absent = str(tmp / "absent" / "x")
    under_file = f"{a_file}/x"  # unreadable: a path through a file
    folder = str(tmp)
    target = ["--arch", "gfx942", "--flavor", "llvm22"]
    corpus = {name: tmp / f"{name}-problems.txt" for name in ("malformed", "unknown", "empty", "gfx942")}
    corpus["malformed"].write_text("conv_fwd --arch gfx942\n")
    corpus["unknown"].write_text("bogus_kind --problem 'n=1' --arch gfx942\n")
    corpus["empty"].write_text("# no problem here\n")
    corpus["gfx942"].write_text("bogus_kind --problem 'n=1' --arch gfx942\n")
    problems = {name: ["catalog", "build", "--out", folder, "--problems", str(path)] for name, path in corpus.items()}
    return {
        "version": [["version", "extra"], ["version", "--bogus"]],
        "families": [["families", "extra"]],
        "lower": [
            ["lower"],
            ["lower", rir],
            ["lower", rir, "--arch", "gfx942"],
            ["lower", rir, "--arch", "gfx9", "--flavor", "llvm22"],
            ["lower", rir, "--arch", "gfx942", "--flavor", "llvm99"],
            ["lower", absent, *target],
            ["lower", folder, *target],
            ["lower", under_file, *target],
            ["lower", a_file, *target],
            ["lower", rir, *target, "--engine", "nope"],
        ],
        "isa": [
            ["isa"],
            ["isa", rir],
            ["isa", absent, "--arch", "gfx942"],
            ["isa", folder, "--arch", "gfx942"],
            ["isa", "gemm", "--config", "x"],
            ["isa", "gemm", "--config", HUGE],
            ["isa", "gemm", "--config", "-1"],
            ["isa", "gemm", "--config", ARABIC_ONE],
            ["isa", "gemm", "--config", "999999"],
            ["isa", "nosuchfamily", "--config", "0"],
            ["isa", "gemm", "--config", "0", "--arch", "gfx1201"],
            ["isa", "gemm", "--spec", "m=1"],
        ],
        "emit": [
            ["emit"],
            ["emit", "gemm"],
            ["emit", "gemm", "--config", "0", "--spec", "x"],
            ["emit", "gemm", "--config", "x", *target],
            ["emit", "gemm", "--config", HUGE, *target],
            ["emit", "gemm", "--config", "-3", *target],
            ["emit", "gemm", "--config", ARABIC_ONE, *target],
            ["emit", "gemm", "--config", "999999", *target],
            ["emit", "gemm", "--config", "0"],
            ["emit", "nosuchfamily", "--config", "0", *target],
            ["emit", "gemm", "--config", "0", "--arch", "gfx1201"],
            ["emit", "gemm", "--spec", "bogus=1\nsecond=line", *target],
            ["emit", "gemm", "--spec", "m=1"],
            ["emit", "gemm", "--spec", "\x00\udcff", *target],
            ["emit", "gemm", "--config", "0", "--flavor", "llvm22", "--engine", "nope"],
            ["emit", "gemm", "--config", "0", "--flavor", "llvm22", "--problem", "m=1 n=1 k=1"],
            ["emit", "gemm", "--config", "0", "--flavor", "llvm22", "--out", folder, "--problem", "m=x"],
            ["emit", "gemm", "--config", "0", "--flavor", "llvm22", "--out", folder, "--problem", "m=1 m=1"],
            ["emit", "gemm", "--config", "0", "--flavor", "llvm22", "--out", folder, "--problem", "m=1"],
            ["emit", "gemm", "--config", "0", "--flavor", "llvm22", "--out", a_file],
            ["emit", "gemm", "--config", "0", "--flavor", "llvm22", "--out", folder, "--problem", "m=1 n=1 k=x"],
            ["emit", "gemm", "--config", "0", "--flavor", "llvm22", "--out", folder, "--problem", "m=1 n=1 k=1 bm=3"],
        ],
        "check": [
            ["check"],
            ["check", "nosuchgate"],
            ["check", "golden", "--root", absent],
            ["check", "golden", "--root", a_file],
            ["check", "golden", "--root", folder],
            ["check", "golden", "--jobs", HUGE],
            ["check", "golden", "--jobs", "0"],
            ["check", "golden", "--jobs", "-3"],
            ["check", "golden", "--jobs", "x"],
            ["check", "golden", "--jobs", ARABIC_ONE],
            ["check", "golden", "--only", "elementwise", "--shard", "999/1000"],
            ["check", "validity", "--only", "elementwise", "--shard", "999/1000"],
            ["check", "parity", "--only", "elementwise", "--shard", "999/1000"],
            ["check", "validity", "--shard", "3/2"],
            ["check", "validity", "--shard", "x"],
            ["check", "validity", "--shard", f"0/{HUGE}{HUGE}"],
            ["check", "parity", "--only", "nosuchfamily"],
            ["check", "parity", "--flavor", "llvm99"],
            ["check", "parity", "--root", folder],
        ],
        "bless": [
            ["bless", "--root", absent],
            ["bless", "--root", a_file],
            ["bless", "--root", folder],
            ["bless", "--jobs", "0"],
            ["bless", "--jobs", HUGE],
            ["bless", "--only", "nosuchfamily", "--root", folder],
        ],
        "sim": [
            ["sim"],
            ["sim", "elementwise"],
            ["sim", "elementwise", "--config", "0", "--seed", "-1"],
            ["sim", "elementwise", "--config", "0", "--seed", HUGE + HUGE],
            ["sim", "elementwise", "--config", "0", "--seed", "x"],
            ["sim", "elementwise", "--config", ARABIC_ONE],
            ["sim", "elementwise", "--config", HUGE],
            ["sim", "elementwise", "--spec", "block=64 dtype=f16 op=silu vec=4"],
            ["sim", "nosuchfamily", "--config", "0"],
            ["sim", "elementwise", "--config", "0", "--arch", "gfx1201"],
            ["sim", "attention_bwd", "--problem", "batch=1"],
            ["sim", "nosuchkind", "--problem", "batch=1", "--arch", "gfx942"],
            ["sim", "elementwise", "--problem", "x" * 5000, "--arch", "gfx942"],
            ["sim", "elementwise", "--config", "0", "--problem", "batch=1"],
        ],
        "run": [
            ["run"],
            ["run", "elementwise"],
            ["run", "elementwise", "--config", "0", "--seed", "-1"],
            ["run", "elementwise", "--config", HUGE],
            ["run", "elementwise", "--config", "0", "--flavor", "llvm99"],
            ["run", "elementwise", "--spec", "block=64 dtype=f16 op=silu vec=4"],
            ["run", "nosuchfamily", "--config", "0"],
            ["run", "elementwise", "--config", "0", "--arch", "gfx1201"],
            ["run", "attention_bwd", "--problem", "batch=1"],
            ["run", "elementwise", "--problem", "x" * 5000, "--arch", "gfx942"],
            ["run", "elementwise", "--config", "0"],  # no GPU of the arch: one line, exit 2
        ],
        "cache": [
            ["cache"],
            ["cache", "bogus"],
            ["cache", "show", "extra"],
            ["cache", "clear", "--json"],
        ],
        "bench": [
            ["bench", "--json", absent],
            ["bench", "--json", folder],
            ["bench", "--json", under_file],
            ["bench", "--jobs", "0"],
            ["bench", "--jobs", HUGE],
            ["bench", "--only", "nosuchfamily"],
            ["bench", "--bogus"],
        ],
        "demo": [["demo", "extra"]],
        "plan": [
            ["plan"],
            ["plan", "conv_fwd"],
            ["plan", "conv_fwd", "--problem", "n=1"],
            ["plan", "conv_fwd", "--arch", "gfx942"],
            ["plan", "conv_fwd", "--problem", "n=1", "--arch", "gfx9"],
            ["plan", "nosuchkind", "--problem", "n=1", "--arch", "gfx942"],
            ["plan", "conv_fwd", "--problem", "n=1", "--arch", "gfx942", "--engine", "nope"],
            ["plan", "conv_fwd", "--problem", "x" * 5000, "--arch", "gfx942"],
            ["plan", "conv_fwd", "--problem", "n=1\nh=2", "--arch", "gfx942", "--json", "--bogus"],
            ["plan", "conv_fwd", "--problem", "n=1", "--arch", "gfx942", "--out", a_file, "--flavor", "llvm22"],
            ["plan", "conv_fwd", "--problem", "n=1", "--arch", "gfx942", "--out", folder],
            ["plan", "conv_fwd", "--problem", "n=1", "--arch", "gfx942", "--flavor", "llvm22"],
        ],
        "catalog": [
            ["catalog"],
            ["catalog", "bogus"],
            ["catalog", "build"],
            ["catalog", "build", "--arch", "gfx9", "--out", folder],
            ["catalog", "build", "--arch", "gfx942", "--out", folder, "--jobs", "0"],
            ["catalog", "build", "--arch", "gfx942", "--out", folder, "--jobs", HUGE],
            ["catalog", "verify"],
            ["catalog", "verify", absent],
            ["catalog", "verify", a_file],
            ["catalog", "build", "--arch", "gfx942", "--out", a_file],
            ["catalog", "build", "--arch", "gfx942", "--out", under_file],
            ["catalog", "build", "--out", folder],
            ["catalog", "build", "--arch", "gfx942", "--out", folder, "--problems-only"],
            ["catalog", "build", "--out", folder, "--problems", absent],
            ["catalog", "build", "--out", folder, "--problems", folder],
            problems["malformed"],
            problems["unknown"],
            problems["empty"],
            [*problems["gfx942"], "--arch", "gfx1100"],
            [*problems["gfx942"], "--problems-only", "--only", "elementwise"],
        ],
    }


def _verbs() -> set[str]:
    parser = app._parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return set(sub.choices)


def test_every_verb_has_abuse_cases(tmp_path):
    assert set(_cases(tmp_path)) == _verbs()


class Tripwire(Exception):
    pass


@pytest.fixture
def tripwires(monkeypatch):
    """Expensive entry points raise Tripwire: argument errors must come before any of them."""
    from rocke.cli import bench_cmd, gates_cmd
    from rocke.gates import bench, catalog, golden

    def trip(*_args, **_kwargs):
        raise Tripwire("expensive work started before the arguments were checked")

    for module, name in [
        (gates_cmd, "run_parity"),
        (gates_cmd, "run_validity"),
        (gates_cmd, "check_golden"),
        (gates_cmd, "bless"),
        (golden, "compute"),
        (bench, "engine_speed"),
        (bench, "gate_cost"),
        (bench_cmd, "format_bench"),
        (catalog, "build_catalog"),
        (catalog, "verify_catalog"),
    ]:
        monkeypatch.setattr(module, name, trip)


def _run(argv: list[str], capsys) -> tuple[int, str]:
    try:
        code = app.main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    return code, capsys.readouterr().err


def _all_cases(tmp_path):
    return [(verb, argv) for verb, cases in _cases(tmp_path).items() for argv in cases]


@pytest.mark.parametrize("verb", sorted(_verbs()))
def test_bad_arguments_exit_2_with_one_line(verb, tmp_path, capsys, tripwires, monkeypatch):
    monkeypatch.chdir(tmp_path)  # plain `bless` outside a checkout
    cases = _cases(tmp_path)[verb]
    if verb == "bless":
        cases = [*cases, ["bless"]]
    if verb == "bench":
        from rocke.gates import emitters

        monkeypatch.setenv("PATH", str(tmp_path))  # no native emitter to be found
        monkeypatch.setattr(emitters, "emitter_search_dirs", lambda: [tmp_path])
        cases = [*cases, ["bench"]]
    for argv in cases:
        code, err = _run(argv, capsys)
        shown = repr(argv)
        assert code == 2, f"{shown}: exit {code}: {err}"
        assert err.endswith("\n") and err.count("\n") == 1, f"{shown}: not one line: {err!r}"
        assert "Traceback" not in err and "error" in err, f"{shown}: {err!r}"


def test_huge_input_is_refused_before_it_is_read(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("ROCKE_MAX_INPUT_BYTES", "4096")
    code, err = _run(["lower", "/dev/zero", "--arch", "gfx942", "--flavor", "llvm22"], capsys)
    assert code == 2 and err == (
        "rocke lower: error: /dev/zero: input larger than 4096 bytes (the limit; ROCKE_MAX_INPUT_BYTES changes it)\n"
    )
    monkeypatch.setenv("ROCKE_MAX_INPUT_BYTES", "0x10")
    code, err = _run(["lower", str(_sample(tmp_path)), "--arch", "gfx942", "--flavor", "llvm22"], capsys)
    assert code == 2 and "ROCKE_MAX_INPUT_BYTES: expected a positive decimal number" in err


def test_directory_is_named_as_such(tmp_path, capsys):
    code, err = _run(["lower", str(tmp_path), "--arch", "gfx942", "--flavor", "llvm22"], capsys)
    assert code == 2 and err == f"rocke lower: error: cannot read {tmp_path}: Is a directory\n"


def _rocke(*args: str, stdin: bytes | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    import os

    return subprocess.run(
        [sys.executable, "-m", "rocke", *args],
        capture_output=True,
        input=stdin,
        env={**os.environ, **(env or {})},
        timeout=300,
    )


def test_real_processes_print_one_line(tmp_path):
    for args, env in [
        (("lower", "/dev/zero", "--arch", "gfx942", "--flavor", "llvm22"), {"ROCKE_MAX_INPUT_BYTES": "65536"}),
        (("check", "golden", "--jobs", HUGE), {}),
        (("bench", "--json", str(tmp_path / "no" / "x.json")), {}),
        (("emit", "gemm", "--spec", "a=1\nb=2", "--arch", "gfx942", "--flavor", "llvm22"), {}),
    ]:
        out = _rocke(*args, env=env)
        err = out.stderr.decode()
        assert out.returncode == 2 and err.count("\n") == 1 and "Traceback" not in err, (args, err)


def test_stdin_is_read_with_the_limit(tmp_path):
    text = _sample(tmp_path).read_bytes()
    out = _rocke("lower", "-", "--arch", "gfx942", "--flavor", "llvm22", stdin=text)
    assert out.returncode == 0 and b"define amdgpu_kernel void @axpy(" in out.stdout
    out = _rocke(
        "lower", "-", "--arch", "gfx942", "--flavor", "llvm22", stdin=text, env={"ROCKE_MAX_INPUT_BYTES": "100"}
    )
    assert out.returncode == 2 and out.stderr.decode() == (
        "rocke lower: error: <stdin>: input larger than 100 bytes (the limit; ROCKE_MAX_INPUT_BYTES changes it)\n"
    )


def test_config_arch_comes_from_the_config_line(capsys):
    """`--config N` needs no --arch; a contradicting --arch is an error naming both."""
    from rocke.families import get_family
    from rocke.families.configs import family_configs

    line = family_configs(get_family("elementwise"))[3]
    code, _ = _run(["emit", "elementwise", "--config", "3", "--ir"], capsys)
    assert code == 0
    other = "gfx1201" if line.arch != "gfx1201" else "gfx942"
    code, err = _run(["emit", "elementwise", "--config", "3", "--arch", other, "--ir"], capsys)
    assert code == 2 and f"--config 3 is for {line.arch}, not {other}" in err


def test_sim_config_without_arch_runs_on_the_line_arch():
    """The README's `rocke sim elementwise --config 3` (the arch comes from config 3's line)."""
    out = _rocke("sim", "elementwise", "--config", "3")
    assert out.returncode == 0, out.stderr.decode()
    assert b"PASS" in out.stdout


# ---- regressions of the defects a new user met (each failed before its fix) -----------------------

def test_catalog_verify_of_a_missing_directory_or_a_file_is_one_usage_line(tmp_path, capsys):
    a_file = tmp_path / "f"
    a_file.write_text("x")
    for target, why in ((tmp_path / "absent", "no such directory"), (a_file, "not a directory")):
        code, err = _run(["catalog", "verify", str(target)], capsys)
        assert code == 2 and err.count("\n") == 1 and f"DIR {target}: {why}" in err, err


def test_catalog_build_into_a_file_fails_before_compiling(tmp_path, capsys, tripwires):
    a_file = tmp_path / "f"
    a_file.write_text("x")
    code, err = _run(["catalog", "build", "--arch", "gfx942", "--out", str(a_file)], capsys)
    assert code == 2 and err.count("\n") == 1 and "exists and is not a directory" in err, err


def test_catalog_build_checks_its_problem_corpus_before_compiling(tmp_path, capsys, tripwires):
    corpus = tmp_path / "problems.txt"
    corpus.write_text("# the product path\n\nbogus_kind --problem 'n=1' --arch gfx942\n")
    code, err = _run(["catalog", "build", "--problems", str(corpus), "--out", str(tmp_path / "c")], capsys)
    assert code == 2 and err.startswith(f"rocke catalog: error: {corpus}:3: unknown problem kind 'bogus_kind'; known: ")
    corpus.write_text("conv_fwd --problem 'n=1' --arch gfx942 --flavor llvm22\n")
    code, err = _run(["catalog", "build", "--problems", str(corpus), "--out", str(tmp_path / "c")], capsys)
    assert code == 2 and err == (f"rocke catalog: error: {corpus}:1: unknown option '--flavor' "
                                 "(a line is KIND --problem 'k=v ...' --arch A)\n")
    code, err = _run(["catalog", "build", "--out", str(tmp_path / "c")], capsys)
    assert code == 2 and err == ("rocke catalog: error: --arch is required (or --problems FILE, whose lines name "
                                 "their archs)\n")
    assert not (tmp_path / "c").exists()


def test_catalog_build_of_an_nvidia_arch_says_it_is_skipped(tmp_path, capsys):
    code = app.main(["catalog", "build", "--arch", "sm_90", "--out", str(tmp_path / "c"), "--quiet"])
    out = capsys.readouterr().out
    assert code == 1 and out == ("catalog: FAILED: cannot build code objects here: sm_90: sm_90 is an NVIDIA arch; "
                                 "the catalog holds AMD code objects (HSACO) only\n")


def test_a_missing_rocke_lld_is_named_as_such(tmp_path, monkeypatch):
    from rocke.gates.artifacts import hsaco_skip_reason

    missing = tmp_path / "no-ld.lld"
    monkeypatch.setenv("ROCKE_LLD", str(missing))
    reason = hsaco_skip_reason("llvm22")
    assert reason == f"ld.lld not found: ROCKE_LLD={missing} is not an executable (fix or unset ROCKE_LLD)"
    monkeypatch.delenv("ROCKE_LLD")
    monkeypatch.setenv("PATH", str(tmp_path))
    from rocke.isa import hsaco

    monkeypatch.setattr(hsaco, "_llvm_installs", list)
    assert hsaco_skip_reason("llvm22") == "ld.lld not found (install Debian package lld-19, or set ROCKE_LLD)"


def _help(argv: list[str], capsys) -> str:
    with pytest.raises(SystemExit):
        app.main([*argv, "--help"])
    return " ".join(capsys.readouterr().out.split())


def test_check_root_help_and_the_goldens_a_check_reads(tmp_path, capsys, monkeypatch):
    """--root's help says what the default is (the installed goldens, not the cwd), and a golden
    check says which goldens it reads."""
    from rocke.cli import gates_cmd

    text = _help(["check"], capsys)
    assert "default: cwd" not in text and "default: the installed packages' goldens" in text
    monkeypatch.chdir(tmp_path)

    class Done:
        def timing_table(self) -> str:
            return ""

    monkeypatch.setattr(gates_cmd, "check_golden", lambda *a, **k: ([], Done()))
    code = app.main(["check", "golden", "--only", "elementwise"])
    out = capsys.readouterr().out
    assert code == 0 and out.startswith("golden: reading the installed packages' goldens (--root DIR reads"), out


def test_flavor_help_says_when_it_is_required(capsys):
    assert "required, except with --ir; --out needs it too" in _help(["emit"], capsys)
    assert "required with --out" in _help(["plan"], capsys)


def test_emit_both_says_the_engines_agreed(capsys):
    code = app.main(["emit", "elementwise", "--config", "3", "--ir", "--engine", "both"])
    out = capsys.readouterr()
    assert code == 0 and out.out.startswith("rocke.ir/1\n")
    assert out.err == "rocke emit: python and cpp engines agree: IR byte-identical\n"


def test_isa_of_a_rir_built_for_another_arch(tmp_path, capsys):
    """A .rir written with its launch template records its arch: another --arch is refused, none
    takes it; a bare .rir is compiled for --arch with a note that its arch is unchecked."""
    from rocke.families import get_family
    from rocke.families.configs import family_configs

    index = next(i for i, c in enumerate(family_configs(get_family("elementwise")))
                       if c.arch == "gfx1100" and not c.refuse)
    assert app.main(["emit", "elementwise", "--config", str(index), "--flavor", "llvm22", "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    (rir,) = tmp_path.glob("*.rir")
    code, err = _run(["isa", str(rir), "--arch", "gfx942"], capsys)
    assert code == 2 and err.count("\n") == 1 and f"was built for gfx1100 ({rir.with_suffix('.launch.json')} " \
        "says so), not gfx942" in err, err
    bare = tmp_path / "bare" / "k.rir"
    bare.parent.mkdir()
    bare.write_bytes(rir.read_bytes())
    code, err = _run(["isa", str(bare)], capsys)
    assert code == 2 and "--arch is required with FILE (a rocke.ir/1 text records no arch)" in err
