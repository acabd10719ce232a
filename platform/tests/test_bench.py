"""The bench harness cannot rot: its pure parts run here (the measured run is the bench lane)."""

import time

import pytest

from rocke.gates import bench


def test_median_seconds_warms_up_and_takes_the_median():
    calls = []
    value = bench.median_seconds(lambda: calls.append(1), runs=3, warmup=2)
    assert len(calls) == 5 and value >= 0.0


def test_cpu_seconds_counts_work_and_not_sleep():
    start = bench.cpu_seconds()
    time.sleep(0.05)
    slept = bench.cpu_seconds() - start
    start = bench.cpu_seconds()
    sum(i * i for i in range(300_000))
    worked = bench.cpu_seconds() - start
    assert slept < 0.04 and worked > 0.0


def test_synthetic_kernels_grow_with_the_requested_size():
    small, large = bench.synthetic_kernel(100), bench.synthetic_kernel(400)
    assert 90 <= small.op_count() <= 110 and 390 <= large.op_count() <= 410


def test_format_bench_prints_the_four_sections():
    data = {
        "engine_speed": [{"family": "gemm", "configs": 2, "python_s": 0.05, "cpp_s": 0.001, "native_s": 0.0008,
                          "native_fixed_s": 0.0015, "native_run_s": 0.00155, "cpp_speedup": 50.0,
                          "native_speedup": 62.5, "native_run_speedup": 32.3, "native_passes": 7,
                          "native_file_s": 0.00095, "native_file_speedup": 52.6,
                          "cpp_after_python_s": 0.002, "cpp_after_python_speedup": 25.0},
                         {"family": "old", "configs": 2, "python_s": 0.05, "cpp_s": 0.001, "native_s": 0.0008,
                          "native_fixed_s": 0.0015, "native_run_s": 0.00155, "cpp_speedup": 50.0,
                          "native_speedup": 62.5, "native_run_speedup": 32.3, "native_passes": 7,
                          "cpp_after_python_s": 0.002, "cpp_after_python_speedup": 25.0}],
        "gate_cost": {"parity": {"wall_s": 10.0, "families": {"gemm": 9.0, "elementwise": 1.0},
                                 "configs": {"gemm": 1, "elementwise": 9}, "share_limit": 0.25,
                                 "over_share": ["gemm"]}},
        "kernel_resources": [{"family": "gemm", "arch": "gfx942", "configs": 3, "occupancy_min": 2,
                              "occupancy_median": 4, "occupancy_max": 8, "vgprs_max": 96, "agprs_max": 32,
                              "lds_max": 8192, "spilling": 0}],
        "scaling": [{"ops": 1000, "python_s": 0.1, "cpp_s": 0.002, "cpp_speedup": 50.0, "python_us_per_op": 100.0,
                     "cpp_us_per_op": 2.0, "python_growth": 1.0, "cpp_growth": 1.0, "cpp_parse_us_per_op": 0.5,
                     "cpp_verify_us_per_op": 0.25, "cpp_lower_us_per_op": 0.75}],
        "cpp_phases": [{"family": "gemm", "configs": 2, "ops_median": 1800, "build_us_per_op": 0.4,
                        "verify_us_per_op": 0.1, "lower_us_per_op": 0.3, "print_us_per_op": 0.1,
                        "parse_us_per_op": 0.2}],
        "parse_speed": [{"input": "open_braces", "bytes": 1 << 20, "python_mb_s": 5.0, "python_x4": 4.1,
                         "cpp_mb_s": 300.0, "cpp_x4": 3.9}],
    }
    text = bench.format_bench(data)
    for heading in ["1. engine speed", "2. gate cost", "3. kernel resources", "4. scaling", "5. parse speed",
                    "6. C++ engine phases"]:
        assert heading in text
    assert ("over 25% of the time without over 25% of the configs or of the IR lines:"
            " gemm (90% of the time, 10% of the configs)") in text
    row = text.splitlines()[2].split()
    # the native slope's passes, the native emitter storing its records in a file, then the
    # bindings after Python; a record from before the file columns shows dashes there
    assert row[-5:] == ["7", "0.950", "52.6", "2.000", "25.0"]
    assert text.splitlines()[3].split()[-5:] == ["7", "-", "-", "2.000", "25.0"]


def test_a_crashing_engine_is_a_bench_error():
    class Out:
        crash = "boom"

    with pytest.raises(bench.BenchError, match="python engine crashed on gemm: boom"):
        bench._require(Out(), "python", "gemm")


def test_parse_speed_measures_both_engines_on_valid_and_hostile_inputs():
    rows = bench.parse_speed(1 << 12, runs=1)
    assert [r["input"] for r in rows] == ["valid_kernel", *bench.PARSE_INPUTS]
    for row in rows:
        assert row["python_mb_s"] > 0 and row["cpp_mb_s"] > 0 and row["python_x4"] > 0 and row["cpp_x4"] > 0


def test_scaling_rows_report_growth_against_the_first_row():
    rows = bench.scaling([100, 200], runs=1)
    assert rows[0]["python_growth"] == 1.0 and rows[0]["cpp_growth"] == 1.0
    for row in rows:
        assert row["cpp_us_per_op"] > 0 and row["cpp_parse_us_per_op"] > 0 and row["cpp_lower_us_per_op"] > 0


def test_cpp_phases_profiles_every_phase_of_a_family_config():
    from rocke.families import get_family

    (row,) = bench.cpp_phases([get_family("elementwise")], runs=1, max_configs=1)
    assert row["family"] == "elementwise" and row["configs"] == 1 and row["ops_median"] > 0
    for phase in bench.CPP_PHASES:
        assert row[f"{phase}_us_per_op"] > 0


def test_native_run_seconds_counts_the_emitter_process_and_not_the_bench(monkeypatch):
    import sys

    burn = [sys.executable, "-c", "sum(i * i for i in range(2_000_000))"]
    quiet = [sys.executable, "-c", "pass"]
    monkeypatch.setattr(bench, "native_command", lambda family, flavors=bench.FLAVORS, configs=None: burn)
    burning = bench.native_run_seconds(None)
    monkeypatch.setattr(bench, "native_command", lambda family, flavors=bench.FLAVORS, configs=None: quiet)
    idle = bench.native_run_seconds(None)
    assert burning > 0.02 and idle < burning  # the child's work is what is measured
    # This process's own CPU time around the run (spawning, decoding) must not count: make it
    # jump by 10 s per reading; a figure taken with cpu_seconds() (this process + children) fails.
    clock = iter(range(0, 10_000, 10))
    monkeypatch.setattr(bench.time, "process_time", lambda: float(next(clock)))
    assert bench.native_run_seconds(None) < 5.0
    start = bench.cpu_seconds()
    assert bench.cpu_seconds() - start >= 9.99  # the negative control: the bench clock does see the jump


def test_native_runs_hand_their_records_to_the_null_device_unless_told_to_store_them(monkeypatch):
    import sys

    # The child exits 0 only when its stdout is what it should be: a character device (the null
    # device) by default, a regular file with to_file. Each check is the other's negative control.
    probe = ("import os, stat, sys; mode = os.fstat(1).st_mode; "
             "sys.exit(0 if {}(mode) else 7)")
    null_child = [sys.executable, "-c", probe.format("stat.S_ISCHR")]
    file_child = [sys.executable, "-c", probe.format("stat.S_ISREG")]

    class Fam:
        native_emitter, name = "probe-emit", "gemm"

    monkeypatch.setattr(bench, "native_command", lambda family, flavors=bench.FLAVORS, configs=None: null_child)
    bench.native_run_seconds(Fam())
    with pytest.raises(bench.BenchError, match="probe-emit exited 7"):
        bench.native_run_seconds(Fam(), to_file=True)
    monkeypatch.setattr(bench, "native_command", lambda family, flavors=bench.FLAVORS, configs=None: file_child)
    bench.native_run_seconds(Fam(), to_file=True)
    with pytest.raises(bench.BenchError, match="probe-emit exited 7"):
        bench.native_run_seconds(Fam())


def test_a_failing_native_emitter_is_a_bench_error(monkeypatch):
    import sys

    class Fam:
        native_emitter, name = "fake-emit", "gemm"

    failing = [sys.executable, "-c", "raise SystemExit(3)"]
    monkeypatch.setattr(bench, "native_command", lambda family, flavors=bench.FLAVORS, configs=None: failing)
    with pytest.raises(bench.BenchError, match="fake-emit exited 3 on gemm"):
        bench.native_run_seconds(Fam())


def test_built_configs_text_keeps_only_the_lines_that_must_build():
    from rocke.families import get_family
    from rocke.families.configs import family_configs, parse_configs

    family = get_family("elementwise")
    lines = family_configs(family)
    assert any(c.refuse for c in lines)  # the shipped file has refusals: the case this guards
    text = bench.built_configs_text(lines)
    again = parse_configs(text, family.spec, "built.cfg")
    assert [(c.arch, c.kv) for c in again] == [(c.arch, c.kv) for c in lines if not c.refuse]
    assert not any(c.refuse for c in again) and "refuse" not in text


def _fake_native(monkeypatch, fixed: float, per_config: float, file_per_config: float = 0.0,
                 files: list[bool] | None = None):
    """emit_native and native_run_seconds of an emitter whose run costs fixed + per_config * lines,
    and file_per_config more per line when its records go to a file; returns the list of config
    files it was run on (and appends each run's to_file to `files`)."""
    from rocke.families.configs import parse_configs
    from rocke.gates.emitters import Emission

    seen = []
    files = [] if files is None else files

    def fake_emit_native(fam, flavors=bench.FLAVORS, timeout=600.0, configs=None):
        lines = parse_configs(configs.read_text(), fam.spec, "built.cfg")
        return [Emission(ir="ir", ll={f: "ll" for f in flavors}) for _ in lines]

    def fake_run(fam, flavors=bench.FLAVORS, configs=None, *, to_file=False):
        lines = parse_configs(configs.read_text(), fam.spec, "built.cfg")
        seen.append(lines)
        files.append(to_file)
        return fixed + (per_config + (file_per_config if to_file else 0.0)) * len(lines)

    monkeypatch.setattr(bench, "emit_native", fake_emit_native)
    monkeypatch.setattr(bench, "native_run_seconds", fake_run)
    return seen


def test_native_passes_put_enough_work_between_the_two_runs_of_a_slope():
    # passes beyond the first cost at least min_extra_s, counted in one-pass runs; 2 <= passes <= max
    assert bench.native_passes(0.05, min_extra_s=0.2, max_passes=32) == 5
    assert bench.native_passes(0.06, min_extra_s=0.2, max_passes=32) == 5
    assert bench.native_passes(0.001, min_extra_s=0.2, max_passes=32) == 32
    assert bench.native_passes(1.0, min_extra_s=0.2, max_passes=32) == 2
    assert bench.native_passes(0.0, min_extra_s=0.2, max_passes=8) == 8


def test_native_figures_split_a_runs_fixed_cost_from_its_cost_per_config(monkeypatch):
    from rocke.families import get_family
    from rocke.families.configs import family_configs

    family = get_family("elementwise")
    built = [c for c in family_configs(family) if not c.refuse]
    files: list[bool] = []
    seen = _fake_native(monkeypatch, fixed=0.0015, per_config=0.0001, file_per_config=0.00002, files=files)
    got = bench.native_figures(family, runs=3)
    n = len(built)
    passes = bench.native_passes(0.0015 + 0.0001 * n)
    assert 2 < passes <= bench.NATIVE_MAX_PASSES and got["passes"] == passes
    # one run to size the long run, then seven turns (2 * runs + 1), the order alternating: the
    # built configs, them `passes` times, and them `passes` times to a file; never a refusal line
    long = passes * n
    assert [len(run) for run in seen] == [n] + [n, long, long, long, long, n] * 3 + [n, long, long]
    assert files == [False] + [False, False, True, True, False, False] * 3 + [False, False, True]
    assert all(not any(c.refuse for c in run) for run in seen)
    assert [(c.arch, c.kv) for c in seen[2]] == [(c.arch, c.kv) for c in built * passes]
    assert got["per_config_s"] == pytest.approx(0.0001)
    assert got["fixed_s"] == pytest.approx(0.0015)
    assert got["run_per_config_s"] == pytest.approx((0.0015 + 0.0001 * len(built)) / len(built))
    # storing the records: the long runs' difference, per config, on top of the slope
    assert got["file_per_config_s"] == pytest.approx(0.0001 + 0.00002)


def test_native_figures_fall_back_to_the_runs_mean_when_noise_hides_the_slope(monkeypatch):
    from rocke.families import get_family
    from rocke.families.configs import family_configs

    family = get_family("elementwise")
    n = len([c for c in family_configs(family) if not c.refuse])
    _fake_native(monkeypatch, fixed=0.004, per_config=-0.00001)  # the longer run measured shorter
    got = bench.native_figures(family, runs=1)
    assert got["per_config_s"] == pytest.approx(got["run_per_config_s"]) and got["fixed_s"] == 0.0
    assert got["run_per_config_s"] == pytest.approx((0.004 - 0.00001 * n) / n)


def test_native_figure_refuses_a_run_that_does_not_build_every_line(monkeypatch):
    from rocke.families import get_family
    from rocke.gates.emitters import Emission

    monkeypatch.setattr(bench, "emit_native", lambda fam, flavors=bench.FLAVORS, timeout=600.0, configs=None:
                        [Emission(refusal="no")])
    with pytest.raises(bench.BenchError, match="refused a built config of elementwise: no"):
        bench.native_figures(get_family("elementwise"), runs=1)


def test_native_figures_of_the_real_emitter_on_built_configs():
    from rocke.families import get_family

    got = bench.native_figures(get_family("elementwise"), runs=1)
    assert got["per_config_s"] > 0.0 and got["run_per_config_s"] > 0.0 and got["fixed_s"] >= 0.0


def test_gate_cost_flags_by_the_timing_tables_rule(monkeypatch):
    """A family over 25% of a gate's time is flagged only when it holds no more than 25% of the
    configs nor of the IR lines the gate counted, the rule of the gates' own timing tables (one
    function: progress.over_share)."""
    from rocke.gates import progress as progress_mod

    clock = iter([0.0, 10.0, 100.0, 110.0])
    monkeypatch.setattr(bench.time, "perf_counter", lambda: next(clock))

    def fake_gate(rows):
        def run(only, *, jobs, quiet):
            prog = progress_mod.Progress("gate", sum(c for _, c, _, _ in rows), quiet=True, clock=lambda: 0.0)
            for name, configs, lines, seconds in rows:
                prog.start_family(name, configs)
                prog.advance(configs, ir_lines=lines)
                prog.family_done(name, seconds)
            return [], prog
        return run

    # parity: big holds 75% of the configs and 60% of the time (not flagged); slow 10% of the
    # configs, 20% of the IR lines and 30% of the time (flagged); small 15% and 10% (not flagged,
    # though over 10%).
    monkeypatch.setattr(bench, "run_parity", fake_gate([("big", 15, 7000, 6.0), ("slow", 2, 2000, 3.0),
                                                        ("small", 3, 1000, 1.0)]))
    # golden: large holds 10% of the configs but 40% of the IR lines, and 50% of the time: a large
    # family, not a slow one (not flagged); each other family holds 45% of the configs
    monkeypatch.setattr(bench, "check_golden", fake_gate([("a", 9, 3000, 2.5), ("b", 9, 3000, 2.5),
                                                          ("large", 2, 4000, 5.0)]))
    cost = bench.gate_cost(None, jobs=1)
    assert cost["parity"]["over_share"] == ["slow"]
    assert cost["parity"]["configs"] == {"big": 15, "slow": 2, "small": 3}
    assert cost["parity"]["ir_lines"] == {"big": 7000, "slow": 2000, "small": 1000}
    assert cost["golden"]["over_share"] == []
    assert cost["parity"]["over_share"] == progress_mod.over_share(cost["parity"]["families"],
                                                                   cost["parity"]["configs"], 10.0,
                                                                   family_ir_lines=cost["parity"]["ir_lines"])
    # without the IR lines, large is flagged by its configs alone
    assert progress_mod.over_share(cost["golden"]["families"], cost["golden"]["configs"], 10.0) == ["large"]
    assert bench._shares(cost["parity"], "slow") == "slow (30% of the time, 10% of the configs, 20% of the IR lines)"
    assert bench._shares({**cost["parity"], "ir_lines": {}}, "small") == "small (10% of the time, 15% of the configs)"


def test_over_share_is_the_one_rule_of_progress_and_bench():
    from rocke.gates import progress as progress_mod

    seconds, configs = {"big": 6.0, "slow": 3.0, "small": 1.0}, {"big": 15, "slow": 2, "small": 3}
    assert progress_mod.over_share(seconds, configs, 10.0) == ["slow"]
    assert progress_mod.over_share(seconds, configs, 10.0, limit=0.5) == []
    assert progress_mod.over_share({"x": 1.0}, {"x": 1}, 0.0) == []  # no wall time: nothing flagged
    assert progress_mod.over_share({"edge": 2.5}, {"edge": 1, "rest": 3}, 10.0) == []  # 25% is not over 25%
    # a family large in kernel size (over 25% of the IR lines) is not flagged; 25% of them is not over 25%
    def flagged(lines: dict[str, int]) -> list[str]:
        return progress_mod.over_share(seconds, configs, 10.0, family_ir_lines=lines)

    assert flagged({"big": 5, "slow": 4, "small": 1}) == []
    assert flagged({"big": 6, "slow": 2, "small": 0}) == ["slow"]
    assert flagged({"big": 7, "slow": 2, "small": 1}) == ["slow"]
    assert flagged({}) == ["slow"]  # none counted
    assert bench.over_share is progress_mod.over_share  # not a copy


def test_engine_speed_samples_the_engines_between_the_native_runs(monkeypatch):
    """Python and the bindings are timed in turns spread over the native emitter's pairs of runs
    (before every other pair): each config by Python then by the bindings, each timed emission
    after an untimed one of the same config, then the bindings once per config in a run over them."""
    from rocke.families import get_family
    from rocke.gates.emitters import Emission

    family = get_family("elementwise")
    log: list[str] = []
    seen = _fake_native(monkeypatch, fixed=0.001, per_config=0.0001)

    def engine(name):
        def emit(fam, config, flavors=bench.FLAVORS):
            log.append(name)
            return Emission(ir="ir", ll={f: "ll" for f in flavors})
        return emit

    monkeypatch.setattr(bench, "emit_python", engine("python"))
    monkeypatch.setattr(bench, "emit_cpp", engine("cpp"))
    real_run = bench.native_run_seconds
    monkeypatch.setattr(bench, "native_run_seconds", lambda *a, **k: (log.append("native"), real_run(*a, **k))[1])
    rows = bench.engine_speed([family], runs=2, max_configs=3)
    assert rows[0]["configs"] == 3 and len(seen) == 1 + 3 * 5
    # the checks, the sizing run, then per pair: a turn of both engines on pairs 0, 2 and 4
    turn = ["python", "python", "cpp", "cpp"] * 3 + ["cpp"] * 3
    pair = ["native", "native", "native"]  # the pair of a slope and the long run to a file
    assert log == ["python", "cpp"] * 3 + ["native"] + (turn + pair + pair) * 2 + turn + pair
