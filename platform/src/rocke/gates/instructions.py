"""The native emitters' cost in executed instructions (callgrind), the bench's deterministic figure.

CPU time on a shared machine moves by tens of percent between neighbouring runs of the same binary;
the instruction count of a run does not move at all. So besides its timed columns the bench can
report, per family, what one more built config costs the native emitter in instructions (a run over
the built configs twice less a run over them once, as the timed native slope), per config and per
op, and what a run costs besides its configs. Needs valgrind on PATH (`rocke bench --instructions`).
"""

from __future__ import annotations

import importlib
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from rocke.families import Family
from rocke.families.configs import ConfigLine, built_configs_text, family_configs
from rocke.gates.emitters import FLAVORS, native_command

_COLLECTED = re.compile(rb"Collected : (\d+)")


class InstructionsError(RuntimeError):
    """An instruction count could not be taken."""


def valgrind_path() -> str:
    """valgrind on PATH; InstructionsError when it is not there."""
    found = shutil.which("valgrind")
    if found is None:
        raise InstructionsError("instruction counts need valgrind on PATH (callgrind); it was not found")
    return found


def callgrind_instructions(command: list[str], *, valgrind: str | None = None) -> int:
    """Instructions executed by `command` (every thread, start to exit) under callgrind; its
    standard output is discarded. InstructionsError when it fails or callgrind reports no count."""
    with tempfile.TemporaryDirectory() as tmp:
        out_file = Path(tmp) / "callgrind.out"
        proc = subprocess.run([valgrind or valgrind_path(), "--tool=callgrind", f"--callgrind-out-file={out_file}",
                               *command], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    found = _COLLECTED.findall(proc.stderr)
    if proc.returncode != 0 or not found:
        tail = proc.stderr.decode(errors="replace").strip()[-400:]
        raise InstructionsError(f"callgrind on {command[0]} exited {proc.returncode}: {tail}")
    return sum(int(count) for count in found)


def config_ops(family: Family, configs: list[ConfigLine], flavor: str = FLAVORS[-1]) -> int | None:
    """The op count of the configs' kernels, summed (the C++ engine's profile hook counts them);
    None when the family's engine module has no such hook."""
    profile = getattr(importlib.import_module(family.cpp_engine), "_profile_family", None)
    if profile is None:
        return None
    return sum(int(profile(family.name, c.kv, c.arch, flavor, 1)["ops"]) for c in configs)


def native_instructions(family: Family, *, configs: list[ConfigLine] | None = None,
                        flavors: tuple[str, ...] = FLAVORS) -> dict[str, Any]:
    """The family's native emitter over its built configs (or the given ones): instructions per
    config (a run over them twice less a run over them once, over their count N), per op (that
    difference over their ops, None when the ops cannot be counted) and the rest of a one-pass run
    (`fixed`: process start, tables, first touches)."""
    built = [c for c in (family_configs(family) if configs is None else configs) if not c.refuse]
    if not built:
        raise InstructionsError(f"{family.name}: no built configs to count the native emitter's instructions on")
    valgrind = valgrind_path()
    with tempfile.TemporaryDirectory() as tmp:
        once, twice = Path(tmp) / "once.cfg", Path(tmp) / "twice.cfg"
        once.write_text(built_configs_text(built), encoding="ascii")
        twice.write_text(built_configs_text(built + built), encoding="ascii")
        one = callgrind_instructions(native_command(family, flavors, once), valgrind=valgrind)
        two = callgrind_instructions(native_command(family, flavors, twice), valgrind=valgrind)
    ops = config_ops(family, built)
    n = len(built)
    per_config = (two - one) / n
    return {"family": family.name, "configs": n, "ops_per_config": None if ops is None else ops / n,
            "per_config": per_config, "per_op": None if not ops else (two - one) / ops,
            "fixed": max(0.0, one - n * per_config)}


def instruction_rows(families: list[Family], *, max_configs: int | None = None) -> list[dict[str, Any]]:
    """native_instructions of each family (its first max_configs built configs when given)."""
    rows = []
    for family in families:
        configs = [c for c in family_configs(family) if not c.refuse][:max_configs]
        rows.append(native_instructions(family, configs=configs))
    return rows


def format_instructions(rows: list[dict[str, Any]]) -> list[str]:
    """The bench's section 7: thousands of instructions per config and per op, millions per run."""
    lines = ["7. native emitter instructions (callgrind; build + verify + lower llvm20 + llvm22 + print): one more"
             " built config (a run over them twice less a run over them once), per config and per op, and the"
             " rest of a run",
             f"{'family':<22} {'configs':>7} {'ops/config':>10} {'K instr/config':>15} {'K instr/op':>11}"
             f" {'M instr fixed':>14}"]
    for r in rows:
        ops = "-" if r["ops_per_config"] is None else f"{r['ops_per_config']:.0f}"
        per_op = "-" if r["per_op"] is None else f"{r['per_op'] / 1e3:.2f}"
        lines.append(f"{r['family']:<22} {r['configs']:>7} {ops:>10} {r['per_config'] / 1e3:15.1f} {per_op:>11}"
                     f" {r['fixed'] / 1e6:14.2f}")
    return lines
