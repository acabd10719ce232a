"""The bench lane: engine speed, gate cost, kernel resources and scaling, measured in one run.

Figures are medians of repeated runs after a warm-up; the engine comparison is a ratio
taken in the same run, so a noisy machine shifts both sides. Nothing here passes or
fails on an absolute time: a bench run fails only when a measurement cannot be taken.
See docs/performance.md for how to read the output.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from rocke.engine import native_engine
from rocke.families import Family
from rocke.families.configs import family_configs
from rocke.gates.emitters import FLAVORS, emit_cpp, emit_native, emit_python, find_native_emitter
from rocke.gates.frames import FrameError
from rocke.gates.golden import check_golden
from rocke.gates.parity import run_parity
from rocke.gates.runner import select_families
from rocke.gates.validity import run_validity
from rocke.ir import Builder, f32, parse_kernel, print_kernel, ptr
from rocke.ir.adversarial import adversarial_inputs
from rocke.isa import shippable
from rocke.lower import lower


class BenchError(RuntimeError):
    """A measurement could not be taken."""


def median_seconds(fn: Callable[[], Any], *, runs: int, warmup: int = 1) -> float:
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _require(out, engine: str, family: str) -> None:
    if out.crash is not None:
        raise BenchError(f"{engine} engine crashed on {family}: {out.crash}")


def engine_speed(families: list[Family], *, runs: int, max_configs: int) -> list[dict[str, Any]]:
    """Per family: median seconds to build + lower one config (both flavors) per engine, and ratios."""
    rows = []
    for family in families:
        configs = [c for c in family_configs(family) if not c.refuse][:max_configs]
        py, cpp = [], []
        for config in configs:
            _require(emit_python(family, config), "python", family.name)
            _require(emit_cpp(family, config), "cpp", family.name)
            py.append(median_seconds(lambda c=config, f=family: emit_python(f, c), runs=runs))
            cpp.append(median_seconds(lambda c=config, f=family: emit_cpp(f, c), runs=runs))
        all_configs = len(family_configs(family))
        native = median_seconds(lambda f=family: emit_native(f), runs=max(1, runs // 2)) / all_configs
        py_med, cpp_med = statistics.median(py), statistics.median(cpp)
        rows.append({"family": family.name, "configs": len(configs), "python_s": py_med, "cpp_s": cpp_med,
                     "native_s": native, "cpp_speedup": py_med / cpp_med, "native_speedup": py_med / native})
    return rows


def gate_cost(only: list[str] | None, *, jobs: int) -> dict[str, Any]:
    """Wall time of the parity and golden gates, per family, with families over 10% flagged."""
    out: dict[str, Any] = {}
    for gate, run in (("parity", lambda: run_parity(only, jobs=jobs, quiet=True)[1]),
                      ("golden", lambda: check_golden(only, jobs=jobs, quiet=True)[1])):
        start = time.perf_counter()
        progress = run()
        wall = time.perf_counter() - start
        per_family = dict(sorted(progress.family_seconds.items()))
        out[gate] = {"wall_s": wall, "families": per_family,
                     "over_10_percent": sorted(n for n, s in per_family.items() if s > 0.1 * wall)}
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
        vgprs = sorted(r.vgprs for r in res)
        summary.append({"family": family, "arch": arch, "configs": len(res),
                        "occupancy_min": occ[0], "occupancy_median": occ[len(occ) // 2], "occupancy_max": occ[-1],
                        "vgprs_max": vgprs[-1], "agprs_max": max(r.agprs for r in res),
                        "lds_max": max(r.lds_bytes for r in res),
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
    """Lowering time against kernel size, both engines (C++ from rocke.ir/1 text, parse included)."""
    engine = native_engine()
    rows = []
    for size in sizes:
        kernel = synthetic_kernel(size)
        text = print_kernel(kernel)
        py = median_seconds(lambda k=kernel: lower(k, arch=arch, flavor=FLAVORS[-1]), runs=runs)
        cpp = median_seconds(lambda t=text: engine.lower(t, arch, FLAVORS[-1]), runs=runs)
        rows.append({"ops": kernel.op_count(), "python_s": py, "cpp_s": cpp, "cpp_speedup": py / cpp})
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
        rows.append(row)
    return rows


def run_bench(only: list[str] | None = None, *, runs: int = 5, max_configs: int = 8, jobs: int = 2,
              sizes: tuple[int, ...] = (500, 1000, 2000, 4000, 8000), parse_size: int = 1 << 20) -> dict[str, Any]:
    families = select_families(only)
    if not families:
        raise BenchError("no families registered")
    for family in families:  # before anything is measured
        try:
            find_native_emitter(family.native_emitter)
        except FrameError as exc:
            raise BenchError(str(exc)) from None
    return {
        "engine_speed": engine_speed(families, runs=runs, max_configs=max_configs),
        "gate_cost": gate_cost(only, jobs=jobs),
        "kernel_resources": kernel_resources(only, jobs=jobs),
        "scaling": scaling(list(sizes), runs=runs),
        "parse_speed": parse_speed(parse_size, runs=min(runs, 3)),
    }


def format_bench(data: dict[str, Any]) -> str:
    ms = 1e3
    lines = ["1. engine speed: median build + lower (llvm20 + llvm22) per config",
             f"{'family':<20} {'python ms':>10} {'cpp ms':>9} {'native ms':>10} {'cpp x':>7} {'native x':>9}"]
    for r in data["engine_speed"]:
        lines.append(f"{r['family']:<20} {r['python_s'] * ms:10.2f} {r['cpp_s'] * ms:9.3f} {r['native_s'] * ms:10.3f}"
                     f" {r['cpp_speedup']:7.1f} {r['native_speedup']:9.1f}")
    lines.append("2. gate cost (wall seconds)")
    for gate, g in data["gate_cost"].items():
        parts = ", ".join(f"{n} {s:.1f}" for n, s in g["families"].items())
        flag = f"; over 10%: {', '.join(g['over_10_percent'])}" if g["over_10_percent"] else ""
        lines.append(f"  {gate:<7} {g['wall_s']:7.1f} s  ({parts}){flag}")
    lines.append("3. kernel resources at the running LLVM")
    lines.append(f"{'family':<20} {'arch':<8} {'configs':>7} {'occ min/med/max':>16} {'vgpr max':>9} "
                 f"{'agpr max':>9} {'lds max':>8} {'spill':>6}")
    for r in data["kernel_resources"]:
        occ = f"{r['occupancy_min']}/{r['occupancy_median']}/{r['occupancy_max']}"
        lines.append(f"{r['family']:<20} {r['arch']:<8} {r['configs']:>7} {occ:>16} {r['vgprs_max']:>9} "
                     f"{r['agprs_max']:>9} {r['lds_max']:>8} {r['spilling']:>6}")
    lines.append("4. scaling: lowering time against kernel size")
    lines.append(f"{'ops':>8} {'python ms':>10} {'cpp ms':>9} {'cpp x':>7}")
    for r in data["scaling"]:
        lines.append(f"{r['ops']:>8} {r['python_s'] * ms:10.2f} {r['cpp_s'] * ms:9.3f} {r['cpp_speedup']:7.1f}")
    if "parse_speed" in data:
        lines.append("5. parse speed: MB/s on the 4x input; x4 = time at 4x the input over time at 1x (linear: ~4)")
        lines.append(f"{'input':<20} {'bytes':>10} {'python MB/s':>12} {'x4':>6} {'cpp MB/s':>9} {'x4':>6}")
        for r in data["parse_speed"]:
            lines.append(f"{r['input']:<20} {r['bytes']:>10} {r['python_mb_s']:12.2f} {r['python_x4']:6.1f}"
                         f" {r['cpp_mb_s']:9.1f} {r['cpp_x4']:6.1f}")
    return "\n".join(lines)

