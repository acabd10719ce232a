"""The bench's instruction counts (rocke.gates.instructions): callgrind's count read back, the
per-config and per-op arithmetic, and the refusal without valgrind."""

from __future__ import annotations

import shutil
import stat

import pytest

from rocke.families import get_family
from rocke.families.configs import family_configs, parse_configs
from rocke.gates import bench, instructions


def _fake_valgrind(tmp_path, stderr: str, code: int = 0) -> str:
    """An executable that prints stderr to standard error and exits with code, as valgrind would."""
    exe = tmp_path / "valgrind"
    exe.write_text(f"#!/bin/sh\nprintf '%s' '{stderr}' >&2\nexit {code}\n", encoding="ascii")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return str(exe)


def test_callgrind_instructions_reads_the_collected_count(tmp_path):
    fake = _fake_valgrind(tmp_path, "==7== Events    : Ir\\n==7== Collected : 123456\\n")
    assert instructions.callgrind_instructions(["/bin/true"], valgrind=fake) == 123456


def test_callgrind_instructions_refuses_a_failed_run_or_a_missing_count(tmp_path):
    with pytest.raises(instructions.InstructionsError, match="exited 3"):
        instructions.callgrind_instructions(["/bin/true"], valgrind=_fake_valgrind(tmp_path, "boom", code=3))
    with pytest.raises(instructions.InstructionsError, match="exited 0"):
        instructions.callgrind_instructions(["/bin/true"], valgrind=_fake_valgrind(tmp_path, "no count here"))


def test_no_valgrind_is_a_clear_error_and_the_bench_refuses_before_measuring(monkeypatch):
    which = shutil.which
    monkeypatch.setattr(shutil, "which", lambda name, **kw: None if name == "valgrind" else which(name, **kw))
    with pytest.raises(instructions.InstructionsError, match="need valgrind on PATH"):
        instructions.valgrind_path()
    measured = []
    monkeypatch.setattr(bench, "engine_speed", lambda *a, **k: measured.append(1))
    with pytest.raises(bench.BenchError, match="need valgrind on PATH"):
        bench.run_bench(["elementwise"], instructions=True)
    assert not measured


def test_native_instructions_is_a_twice_run_less_a_once_run(monkeypatch):
    family = get_family("elementwise")
    built = [c for c in family_configs(family) if not c.refuse]
    runs = []

    def fake_count(command, *, valgrind=None):
        path = command[command.index("--configs") + 1]
        with open(path, encoding="ascii") as handle:
            lines = parse_configs(handle.read(), family.spec, "built.cfg")
        runs.append(len(lines))
        assert not any(c.refuse for c in lines)
        return 2_000_000 + 500_000 * len(lines)  # a fixed cost and a cost per config

    monkeypatch.setattr(instructions, "valgrind_path", lambda: "valgrind")
    monkeypatch.setattr(instructions, "callgrind_instructions", fake_count)
    monkeypatch.setattr(instructions, "config_ops", lambda fam, configs: 100 * len(configs))
    row = instructions.native_instructions(family)
    n = len(built)
    assert runs == [n, 2 * n]
    assert row["configs"] == n and row["ops_per_config"] == 100
    assert row["per_config"] == 500_000 and row["per_op"] == 5_000 and row["fixed"] == 2_000_000
    lines = instructions.format_instructions([row])
    assert lines[0].startswith("7. native emitter instructions")
    assert lines[2].split() == ["elementwise", str(n), "100", "500.0", "5.00", "2.00"]


def test_format_leaves_per_op_blank_when_ops_cannot_be_counted():
    row = {"family": "f", "configs": 2, "ops_per_config": None, "per_config": 1500.0, "per_op": None, "fixed": 3e6}
    assert instructions.format_instructions([row])[2].split() == ["f", "2", "-", "1.5", "-", "3.00"]


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed here")
def test_native_instructions_of_the_real_emitter():
    family = get_family("elementwise")
    configs = [c for c in family_configs(family) if not c.refuse][:2]
    row = instructions.native_instructions(family, configs=configs)
    assert row["per_config"] > 0 and row["per_op"] > 0 and row["ops_per_config"] > 10
