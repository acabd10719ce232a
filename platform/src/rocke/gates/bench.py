"""The bench lane: engine speed, gate cost, kernel resources and scaling, measured in one run.

Figures are medians of repeated runs after a warm-up, in CPU seconds (user + system of this
process for the engines it calls; of the native emitter's process alone for the native figure),
so that other work on a shared machine changes them less than it changes wall time; the engine comparison is a ratio
taken in the same run, so a noisy machine shifts both sides. The gate cost is wall time. Nothing
here passes or fails on an absolute time: a bench run fails only when a measurement cannot be
taken.
See docs/performance.md for how to read the output.
"""

from __future__ import annotations

import importlib
import math
import os
import resource
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from rocke.engine import native_engine
from rocke.families import Family
from rocke.families.configs import ConfigLine, built_configs_text, family_configs
from rocke.gates.emitters import FLAVORS, emit_cpp, emit_native, emit_python, find_native_emitter, native_command
from rocke.gates.frames import FrameError
from rocke.gates.golden import check_golden
from rocke.gates.instructions import (
    InstructionsError,
    format_instructions,
    instruction_rows,
    valgrind_path,
)
from rocke.gates.parity import run_parity
from rocke.gates.progress import SHARE_LIMIT, family_shares, over_share
from rocke.gates.runner import select_families
from rocke.gates.validity import run_validity
from rocke.ir import Builder, f32, parse_kernel, print_kernel, ptr
from rocke.ir.adversarial import adversarial_inputs
from rocke.isa import shippable
from rocke.lower import lower


class BenchError(RuntimeError):
    """A measurement could not be taken."""


def cpu_seconds() -> float:
    """CPU seconds used so far by this process (clock_gettime resolution) and by its waited-for
    children (getrusage, microseconds)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def child_cpu_seconds() -> float:
    """CPU seconds (user + system) used so far by the waited-for children of this process alone."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return children.ru_utime + children.ru_stime


def native_run_seconds(family: Family, flavors: tuple[str, ...] = FLAVORS, configs: Path | None = None, *,
                       to_file: bool = False) -> float:
    """CPU seconds of one run of the family's native emitter over its whole config file (or over the
    config file `configs`), the emitter process alone. Its records go to the null device: the
    emitter frames every record and hands it to the kernel (write(2)) as it does for a file, but no
    file system stores them, just as the Python and bindings columns keep their output in memory.
    With `to_file`, they go to a temporary file, as a user's `rocke-emit ... > out` does: the
    file system's copy into its cache is system time of the emitter (10-17% of a run here, for
    every family: it grows with the output). The bench process's own work (starting the child,
    and decoding records, which emit_native does and a user of the emitter does not pay) is not
    counted."""
    with (tempfile.TemporaryFile() if to_file else open(os.devnull, "wb")) as out:
        start = child_cpu_seconds()
        proc = subprocess.run(native_command(family, flavors, configs), stdout=out, stderr=subprocess.PIPE)
        seconds = child_cpu_seconds() - start
    if proc.returncode != 0:
        raise BenchError(f"{family.native_emitter} exited {proc.returncode} on {family.name}: "
                         f"{proc.stderr.decode(errors='replace').strip()[-400:]}")
    return seconds


# The passes of a native slope's long run cost at least this much beyond the first (native_passes),
# and there are at most NATIVE_MAX_PASSES of them.
NATIVE_MIN_EXTRA_S = 0.2
NATIVE_MAX_PASSES = 32


def native_passes(one_run_s: float, *, min_extra_s: float = NATIVE_MIN_EXTRA_S,
                  max_passes: int = NATIVE_MAX_PASSES) -> int:
    """How many passes over the configs the long run of a native slope makes: enough that the passes
    beyond the first cost at least min_extra_s (one_run_s, a whole one-pass run, fixed cost included,
    stands for a pass), at least 2 and at most max_passes. A slope is the difference of two process
    runs, each with its own timer and machine noise: the more work between them, the less that noise
    weighs per config."""
    extra = math.ceil(min_extra_s / max(one_run_s, 1e-6))
    return max(2, min(max_passes, 1 + extra))


def native_figures(family: Family, *, runs: int, flavors: tuple[str, ...] = FLAVORS,
                   configs: list[ConfigLine] | None = None,
                   between: Callable[[int], None] | None = None) -> dict[str, float]:
    """The native emitter's cost over the family's built configs (or the given ones), in CPU seconds.

    `per_config_s`: what one more config costs, the median over 2 * `runs` + 1 pairs of neighbouring
    runs (in alternating order), one over a file of the N configs and one over them P times (`passes`,
    native_passes of a first one-pass run), of the pair's difference over (P - 1) * N. `fixed_s`: what
    a run costs besides its configs (process start, tables, first touches), the median run over N
    configs less N times that. `run_per_config_s`: that median run over N (fixed cost included).
    `file_per_config_s`: one more config when the records are stored in a file, the slope plus the
    median per config of a long run to a file less its neighbouring long run (native_run_seconds:
    the other runs hand their records to the null device). The records of the N-config file are
    decoded once, outside the timing: every line must emit, none refuse. `between(pair)`, when
    given, runs before each pair (engine_speed times the engines there, so that every column
    samples the same stretch of the machine's time)."""
    built = [c for c in (family_configs(family) if configs is None else configs) if not c.refuse]
    if not built:
        raise BenchError(f"{family.name}: no built configs to time the native emitter on")
    with tempfile.TemporaryDirectory() as tmp:
        once = Path(tmp) / f"{family.name}.cfg"
        once.write_text(built_configs_text(built), encoding="ascii")
        try:
            outs = emit_native(family, flavors, configs=once)
        except FrameError as exc:
            raise BenchError(f"native emitter on {family.name}'s built configs: {exc}") from None
        for out in outs:
            _require(out, "native", family.name)
            if out.refusal is not None:
                raise BenchError(f"native engine refused a built config of {family.name}: {out.refusal}")
        if len(outs) != len(built):
            raise BenchError(f"native engine emitted {len(outs)} of {family.name}'s {len(built)} built configs")
        passes = native_passes(native_run_seconds(family, flavors, once))
        many = Path(tmp) / f"{family.name}.x{passes}.cfg"
        many.write_text(built_configs_text(built * passes), encoding="ascii")
        one_pass, slopes, file_costs = [], [], []
        for pair in range(2 * max(1, runs) + 1):  # neighbouring runs see the same machine state
            if between is not None:
                between(pair)
            # The pair's order alternates, so a machine speeding up or slowing down during the
            # bench biases no slope one way; the long run to a file neighbours the long run whose
            # records go nowhere, and their difference is what storing the records costs.
            if pair % 2 == 0:
                one = native_run_seconds(family, flavors, once)
                long = native_run_seconds(family, flavors, many)
                long_file = native_run_seconds(family, flavors, many, to_file=True)
            else:
                long_file = native_run_seconds(family, flavors, many, to_file=True)
                long = native_run_seconds(family, flavors, many)
                one = native_run_seconds(family, flavors, once)
            one_pass.append(one)
            slopes.append((long - one) / ((passes - 1) * len(built)))
            file_costs.append((long_file - long) / (passes * len(built)))
    run, slope, n = statistics.median(one_pass), statistics.median(slopes), len(built)
    # A further pass over the same configs executes what the first did (the emitter memoises nothing
    # across configs: the same instruction count per config in every pass, see docs/performance.md);
    # a slope at or below zero is timer noise, and gets the run's mean.
    per_config = slope if slope > 0 else run / n
    return {"per_config_s": per_config, "fixed_s": max(0.0, run - n * per_config), "run_per_config_s": run / n,
            "file_per_config_s": per_config + max(0.0, statistics.median(file_costs)), "passes": float(passes)}


def median_seconds(fn: Callable[[], Any], *, runs: int, warmup: int = 1) -> float:
    """Median CPU seconds of fn over runs calls, after warmup calls."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        start = cpu_seconds()
        fn()
        times.append(cpu_seconds() - start)
    return statistics.median(times)


def _require(out, engine: str, family: str) -> None:
    if out.crash is not None:
        raise BenchError(f"{engine} engine crashed on {family}: {out.crash}")


def _sample_engines(family: Family, configs: list[ConfigLine], py: list[list[float]], cpp: list[list[float]],
                    cpp_after_python: list[list[float]], pair: int) -> None:
    """engine_speed's turn before pair `pair` of native runs (every other one): per config, one timed
    emission by each engine after an untimed one, the bindings' right after Python's
    (`cpp_after_python`); then one timed bindings emission per config in a run over the configs
    (`cpp`), each after the previous config's, as the native emitter's run emits them."""
    if pair % 2:
        return
    for index, config in enumerate(configs):
        py[index].append(median_seconds(partial(emit_python, family, config), runs=1))
        cpp_after_python[index].append(median_seconds(partial(emit_cpp, family, config), runs=1))
    for index, config in enumerate(configs):
        cpp[index].append(median_seconds(partial(emit_cpp, family, config), runs=1, warmup=0))


def engine_speed(families: list[Family], *, runs: int, max_configs: int | None = None) -> list[dict[str, Any]]:
    """Per family: seconds to build + lower one config (both flavors) per engine, and ratios. All
    columns are per config over the same configs, the family's built ones (the first max_configs of
    them when given; no `refuse` line): Python and the bindings the mean over the configs of each
    config's median time, the native emitter what one more config costs in a run (native_figures),
    with the run's fixed cost beside it and the whole run over the count (`native_run_s`, fixed
    cost included) kept for comparison.

    The bindings are timed as the native emitter is, in a run over the configs (`cpp_s`: each
    config's emission follows the previous config's, as when a gate, a tuner or a dispatch table
    emits a family), and also right after the Python engine's emission of the same config and one
    untimed emission of it (`cpp_after_python_s`): a short C++ call that follows milliseconds of
    other work finds the processor's caches and branch predictors trained on that work, and pays
    for it (docs/performance.md, "Two bindings columns").

    The columns are sampled in turns, not one after the other: before every other pair of the
    native emitter's runs, each config is emitted by Python, then by the bindings right after it,
    each timed after an untimed emission of that config; then each config once more by the
    bindings, in a run over the configs. This machine's speed moves by up to 1.5x over minutes; a
    ratio of columns timed minutes apart carried that drift, one of columns spread over the same
    minutes does not."""
    rows = []
    for family in families:
        configs = [c for c in family_configs(family) if not c.refuse][:max_configs]
        for config in configs:
            _require(emit_python(family, config), "python", family.name)
            _require(emit_cpp(family, config), "cpp", family.name)
        py: list[list[float]] = [[] for _ in configs]
        cpp: list[list[float]] = [[] for _ in configs]
        cpp_after_python: list[list[float]] = [[] for _ in configs]
        native = native_figures(family, runs=runs, configs=configs,
                                between=partial(_sample_engines, family, configs, py, cpp, cpp_after_python))
        py_med = statistics.fmean(statistics.median(times) for times in py)
        cpp_med = statistics.fmean(statistics.median(times) for times in cpp)
        after_python = statistics.fmean(statistics.median(times) for times in cpp_after_python)
        rows.append({"family": family.name, "configs": len(configs), "python_s": py_med, "cpp_s": cpp_med,
                     "cpp_after_python_s": after_python,
                     "cpp_after_python_speedup": py_med / max(after_python, 1e-9),
                     "native_s": native["per_config_s"], "native_fixed_s": native["fixed_s"],
                     "native_run_s": native["run_per_config_s"], "cpp_speedup": py_med / max(cpp_med, 1e-9),
                     "native_speedup": py_med / max(native["per_config_s"], 1e-9),
                     "native_run_speedup": py_med / max(native["run_per_config_s"], 1e-9),
                     "native_file_s": native["file_per_config_s"],
                     "native_file_speedup": py_med / max(native["file_per_config_s"], 1e-9),
                     "native_passes": int(native["passes"])})
    return rows


def cpp_phases(families: list[Family], *, runs: int, max_configs: int | None,
               flavor: str = FLAVORS[-1]) -> list[dict[str, Any]]:
    """Per family: where the C++ engine's time goes, as median microseconds per op over its
    configs (thread-CPU time measured inside the engine): build, verify, lower (one flavor), print,
    and parse (the text path's read of the printed IR)."""
    rows = []
    for family in families:
        module = importlib.import_module(family.cpp_engine)
        profile = getattr(module, "_profile_family", None)
        if profile is None:
            continue
        configs = [c for c in family_configs(family) if not c.refuse][:max_configs]
        per_op: dict[str, list[float]] = {phase: [] for phase in CPP_PHASES}
        ops = []
        for config in configs:
            got = profile(family.name, config.kv, config.arch, flavor, runs)
            ops.append(got["ops"])
            for phase in CPP_PHASES:
                per_op[phase].append(got[f"{phase}_s"] / max(1, got["ops"]) * 1e6)
        row: dict[str, Any] = {"family": family.name, "configs": len(configs), "ops_median": statistics.median(ops)}
        row.update({f"{phase}_us_per_op": statistics.median(values) for phase, values in per_op.items()})
        rows.append(row)
    return rows


CPP_PHASES = ("build", "verify", "lower", "print", "parse")


def gate_cost(only: list[str] | None, *, jobs: int) -> dict[str, Any]:
    """Wall time of the parity and golden gates, per family, with each family's configs and IR lines
    (its kernels' size, as the gate counts it) and the families flagged by the gates' own
    timing-table rule (progress.over_share: over SHARE_LIMIT of the gate's wall time while holding
    no more than SHARE_LIMIT of its configs nor of its IR lines)."""
    out: dict[str, Any] = {}
    for gate, run in (("parity", lambda: run_parity(only, jobs=jobs, quiet=True)[1]),
                      ("golden", lambda: check_golden(only, jobs=jobs, quiet=True)[1])):
        start = time.perf_counter()
        progress = run()
        wall = time.perf_counter() - start
        per_family = dict(sorted(progress.family_seconds.items()))
        configs = {name: progress.family_configs.get(name, 0) for name in per_family}
        lines = {name: progress.family_ir_lines.get(name, 0) for name in per_family}
        out[gate] = {"wall_s": wall, "families": per_family, "configs": configs, "ir_lines": lines,
                     "share_limit": SHARE_LIMIT, "over_share": over_share(per_family, configs, wall,
                                                                          family_ir_lines=lines)}
    return out


def kernel_resources(only: list[str] | None, *, jobs: int) -> list[dict[str, Any]]:
    """Per family and arch, at the running LLVM: occupancy spread, VGPR spread and spilling configs."""
    rows, _, _ = run_validity(only, jobs=jobs, quiet=True)
    groups: dict[tuple[str, str], list] = {}
    for row in rows:
        if row.refuse:
            continue  # resource refusals are not shipped kernels
        if row.resources is None:
            raise BenchError(f"{row.family} [{row.key}]: {row.problem}")
        groups.setdefault((row.family, row.resources.arch), []).append(row.resources)
    summary = []
    for (family, arch), res in sorted(groups.items()):
        occ = sorted(r.occupancy for r in res)
        # NVIDIA kernels (ptxas): registers per thread in the VGPR column, shared memory in the LDS one.
        vgprs = sorted(getattr(r, "vgprs", getattr(r, "registers", 0)) for r in res)
        summary.append({"family": family, "arch": arch, "configs": len(res),
                        "occupancy_min": occ[0], "occupancy_median": occ[len(occ) // 2], "occupancy_max": occ[-1],
                        "vgprs_max": vgprs[-1], "agprs_max": max(getattr(r, "agprs", 0) for r in res),
                        "lds_max": max(getattr(r, "lds_bytes", getattr(r, "shared_bytes", 0)) for r in res),
                        "spilling": sum(1 for r in res if not shippable(r))})
    return summary


def synthetic_kernel(op_count: int):
    """A straight-line kernel of about op_count ops (loads, arithmetic, compares, selects, a store)."""
    b = Builder(f"scale_{op_count}", max_workgroup_size=256)
    x = b.param("x", ptr(f32, "global"), noalias=True, readonly=True)
    y = b.param("y", ptr(f32, "global"), noalias=True)
    tid = b.thread_id_x(name="tid")
    acc = b.load(x, tid, name="acc")
    one = b.const(1.0, f32, name="one")
    for _ in range(max(0, (op_count - 4) // 4)):
        prod = b.mul(acc, one)
        summed = b.add(prod, acc)
        cond = b.cmpf("olt", summed, acc)
        acc = b.select(cond, summed, prod, name="acc")
    b.store(y, tid, acc)
    return b.finish()


def scaling(sizes: list[int], *, runs: int, arch: str = "gfx942") -> list[dict[str, Any]]:
    """Lowering time against kernel size, both engines (C++ from rocke.ir/1 text, parse included),
    per op, and the C++ phases per op (parse, verify, lower) measured inside the engine. `growth`
    is the time per op over the time per op of the first (smallest) row: 1.0 is linear."""
    engine = native_engine()
    rows: list[dict[str, Any]] = []
    for size in sizes:
        kernel = synthetic_kernel(size)
        text = print_kernel(kernel)
        ops = kernel.op_count()
        py = median_seconds(lambda k=kernel: lower(k, arch=arch, flavor=FLAVORS[-1]), runs=runs)
        cpp = median_seconds(lambda t=text: engine.lower(t, arch, FLAVORS[-1]), runs=runs)
        row: dict[str, Any] = {"ops": ops, "python_s": py, "cpp_s": cpp, "cpp_speedup": py / max(cpp, 1e-9),
                               "python_us_per_op": py / ops * 1e6, "cpp_us_per_op": cpp / ops * 1e6}
        profile = getattr(engine, "_profile_text", None)
        if profile is not None:
            phases = profile(text, arch, FLAVORS[-1], runs)
            for phase in ("parse", "verify", "lower"):
                row[f"cpp_{phase}_us_per_op"] = phases[f"{phase}_s"] / ops * 1e6
        rows.append(row)
    for row in rows:
        row["python_growth"] = row["python_us_per_op"] / max(rows[0]["python_us_per_op"], 1e-9)
        row["cpp_growth"] = row["cpp_us_per_op"] / max(rows[0]["cpp_us_per_op"], 1e-9)
    return rows


PARSE_INPUTS = ("trailing_spaces", "open_braces", "blank_lines", "unterminated_string", "many_operands",
                "many_attributes")


def _parse_seconds(parse: Callable[[str], Any], text: str, runs: int) -> float:
    def once() -> None:
        try:
            parse(text)
        except ValueError:
            pass

    return median_seconds(once, runs=runs)


def parse_speed(size: int, *, runs: int) -> list[dict[str, Any]]:
    """Parse throughput (MB/s) of both engines on the largest valid kernel of the scaling rows and on
    rocke.ir.adversarial's hostile inputs, at `size` and 4x `size` bytes; the `x4` columns are the
    time ratios (about 4 for a linear parser, 16 for a quadratic one)."""
    engine = native_engine()
    inputs = {"valid_kernel": (print_kernel(synthetic_kernel(max(64, size // 48))),
                               print_kernel(synthetic_kernel(max(64, size // 12))))}
    for name in PARSE_INPUTS:
        inputs[name] = (adversarial_inputs(size)[name], adversarial_inputs(4 * size)[name])
    rows = []
    for name, (small, large) in inputs.items():
        row: dict[str, Any] = {"input": name, "bytes": len(large)}
        for engine_name, parse in (("python", parse_kernel), ("cpp", engine.parse_print)):
            t_small, t_large = _parse_seconds(parse, small, runs), _parse_seconds(parse, large, runs)
            row[f"{engine_name}_mb_s"] = len(large) / max(t_large, 1e-9) / 1e6
            row[f"{engine_name}_x4"] = t_large / max(t_small, 1e-9)
        if name == "valid_kernel" and hasattr(engine, "_profile_text"):  # the parser alone, without the print
            parse_s = engine._profile_text(large, "gfx942", FLAVORS[-1], runs)["parse_s"]
            row["cpp_parse_only_mb_s"] = len(large) / max(parse_s, 1e-9) / 1e6
        rows.append(row)
    return rows


def run_bench(only: list[str] | None = None, *, runs: int = 5, max_configs: int | None = None, jobs: int = 2,
              sizes: tuple[int, ...] = (500, 1000, 2000, 4000, 8000), parse_size: int = 1 << 20,
              instructions: bool = False) -> dict[str, Any]:
    """The bench's figures; `instructions` adds the native emitters' instruction counts (callgrind,
    section 7), which need valgrind on PATH."""
    families = select_families(only)
    if not families:
        raise BenchError("no families registered")
    for family in families:  # before anything is measured
        try:
            find_native_emitter(family.native_emitter)
        except FrameError as exc:
            raise BenchError(str(exc)) from None
    if instructions:
        try:
            valgrind_path()
        except InstructionsError as exc:
            raise BenchError(str(exc)) from None
    data = {
        "engine_speed": engine_speed(families, runs=runs, max_configs=max_configs),
        "cpp_phases": cpp_phases(families, runs=runs, max_configs=max_configs),
        "gate_cost": gate_cost(only, jobs=jobs),
        "kernel_resources": kernel_resources(only, jobs=jobs),
        "scaling": scaling(list(sizes), runs=runs),
        "parse_speed": parse_speed(parse_size, runs=min(runs, 3)),
    }
    if instructions:
        try:
            data["instructions"] = instruction_rows(families, max_configs=max_configs)
        except InstructionsError as exc:
            raise BenchError(str(exc)) from None
    return data


def _shares(gate: dict[str, Any], name: str) -> str:
    """A flagged family's shares of a gate: of its time, of its configs and (when counted) of its
    IR lines."""
    time_share, config_share, line_share = family_shares(gate["families"], gate["configs"], gate["wall_s"],
                                                         gate.get("ir_lines"))[name]
    text = f"{name} ({time_share:.0%} of the time, {config_share:.0%} of the configs"
    if line_share is not None:
        text += f", {line_share:.0%} of the IR lines"
    return text + ")"


def format_bench(data: dict[str, Any]) -> str:
    ms = 1e3
    lines = ["1. engine speed: mean build + lower (llvm20 + llvm22) per built config, the same configs in every column;"
             " native: one more config in a run (a run over the configs less one over them `passes` times), and (run)"
             " the whole run over the configs, its fixed cost included, records to the null device as the other"
             " columns keep theirs in memory, and (file) one more config with its records stored in a file;"
             " cpp: the bindings in a run over the configs, and (after py) right after the Python engine's emission"
             " of each config",
             f"{'family':<20} {'python ms':>10} {'cpp ms':>9} {'native ms':>10} {'cpp x':>7} {'native x':>9}"
             f" {'fixed ms':>9} {'run ms':>8} {'run x':>6} {'passes':>6} {'file ms':>8} {'file x':>6}"
             f" {'after py ms':>11} {'after py x':>10}"]
    for r in data["engine_speed"]:
        file_s, file_x = r.get("native_file_s"), r.get("native_file_speedup")
        file_cols = (f" {file_s * ms:8.3f} {file_x:6.1f}" if file_s is not None and file_x is not None
                     else f" {'-':>8} {'-':>6}")
        lines.append(f"{r['family']:<20} {r['python_s'] * ms:10.2f} {r['cpp_s'] * ms:9.3f} {r['native_s'] * ms:10.3f}"
                     f" {r['cpp_speedup']:7.1f} {r['native_speedup']:9.1f} {r['native_fixed_s'] * ms:9.3f}"
                     f" {r['native_run_s'] * ms:8.3f} {r['native_run_speedup']:6.1f} {r['native_passes']:6d}"
                     f"{file_cols} {r['cpp_after_python_s'] * ms:11.3f} {r['cpp_after_python_speedup']:10.1f}")
    lines.append("2. gate cost (wall seconds)")
    for gate, g in data["gate_cost"].items():
        parts = ", ".join(f"{n} {s:.1f}" for n, s in g["families"].items())
        limit = f"{g.get('share_limit', SHARE_LIMIT):.0%}"
        flag = (f"; over {limit} of the time without over {limit} of the configs or of the IR lines: "
                + ", ".join(_shares(g, name) for name in g["over_share"]) if g["over_share"] else "")
        lines.append(f"  {gate:<7} {g['wall_s']:7.1f} s  ({parts}){flag}")
    lines.append("3. kernel resources at the running LLVM")
    lines.append(f"{'family':<20} {'arch':<8} {'configs':>7} {'occ min/med/max':>16} {'vgpr max':>9} "
                 f"{'agpr max':>9} {'lds max':>8} {'spill':>6}")
    for r in data["kernel_resources"]:
        occ = f"{r['occupancy_min']}/{r['occupancy_median']}/{r['occupancy_max']}"
        lines.append(f"{r['family']:<20} {r['arch']:<8} {r['configs']:>7} {occ:>16} {r['vgprs_max']:>9} "
                     f"{r['agprs_max']:>9} {r['lds_max']:>8} {r['spilling']:>6}")
    lines.append("4. scaling: lowering time against kernel size (C++ from text, parse included); growth = time per op"
                 " over that of the first row (linear: 1.0)")
    lines.append(f"{'ops':>8} {'python ms':>10} {'cpp ms':>9} {'cpp x':>7} {'py us/op':>9} {'py growth':>9}"
                 f" {'cpp us/op':>9} {'cpp growth':>10} {'parse':>7} {'verify':>7} {'lower':>7}")
    for r in data["scaling"]:
        phases = "".join(f" {r.get(f'cpp_{p}_us_per_op', float('nan')):7.3f}" for p in ("parse", "verify", "lower"))
        lines.append(f"{r['ops']:>8} {r['python_s'] * ms:10.2f} {r['cpp_s'] * ms:9.3f} {r['cpp_speedup']:7.1f}"
                     f" {r.get('python_us_per_op', float('nan')):9.2f} {r.get('python_growth', float('nan')):9.2f}"
                     f" {r.get('cpp_us_per_op', float('nan')):9.3f} {r.get('cpp_growth', float('nan')):10.2f}{phases}")
    if "parse_speed" in data:
        lines.append("5. parse speed: MB/s on the 4x input; x4 = time at 4x the input over time at 1x (linear: ~4)")
        lines.append(f"{'input':<20} {'bytes':>10} {'python MB/s':>12} {'x4':>6} {'cpp MB/s':>9} {'x4':>6}"
                     f" {'cpp parse-only MB/s':>20}")
        for r in data["parse_speed"]:
            only = f" {r['cpp_parse_only_mb_s']:20.1f}" if "cpp_parse_only_mb_s" in r else ""
            lines.append(f"{r['input']:<20} {r['bytes']:>10} {r['python_mb_s']:12.2f} {r['python_x4']:6.1f}"
                         f" {r['cpp_mb_s']:9.1f} {r['cpp_x4']:6.1f}{only}")
    if data.get("cpp_phases"):
        lines.append("6. C++ engine phases: median us per op over each family's configs (llvm22; thread-CPU time)")
        lines.append(f"{'family':<20} {'ops':>7}" + "".join(f" {p:>8}" for p in CPP_PHASES))
        for r in data["cpp_phases"]:
            lines.append(f"{r['family']:<20} {r['ops_median']:>7.0f}"
                         + "".join(f" {r[f'{p}_us_per_op']:8.3f}" for p in CPP_PHASES))
    if data.get("instructions"):
        lines += format_instructions(data["instructions"])
    return "\n".join(lines)

