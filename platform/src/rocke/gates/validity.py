"""Validity gate: every config of every family through the real LLVM (parse, verify, ISA, resources).

Only the flavor of the running LLVM can be checked in one environment (llvm22 in the
`validity` lane, llvm20 in `validity_llvm20`). What may ship is decided by one rule,
``rocke.isa.refusal_reason`` (no spill of any kind, no scratch, LDS within the arch's capacity,
occupancy above 0). The gate measures every must-build config and every refusal config its
builder would build (the ones only the family's resource-refusal table refuses), and fails when

* a must-build config cannot ship (it must become a refusal config and a table row), or the
  family's table lists it;
* the table differs from what it measured for the running flavor (drift; rows of the other
  flavor are checked by the other lane), or a row has no refusal config in the config file.

``write_refusals`` rewrites the running flavor's part of each table in a source checkout
(``rocke check validity --write-refusals``), keeping the other flavor's rows.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from rocke.arch import get_arch, occupancy
from rocke.families import Family
from rocke.families.configs import ConfigLine
from rocke.families.refusals import (
    Measured,
    RefusalRow,
    RefusalTable,
    family_table,
    folder_package,
    make_table,
    parse_table,
    render_table,
    spec_digest,
    table_name,
    table_path,
)
from rocke.gates.emitters import emit_python
from rocke.gates.progress import LLVM_PHASE, LOWER_PHASE, READ_PHASE, Progress
from rocke.gates.runner import Shard, parallel_map, select_families, sharded_configs
from rocke.isa import (
    CompileJob,
    LLVMVerifyError,
    NvidiaResources,
    Resources,
    ToolchainError,
    codegen_target,
    compile_many,
    kernel_resources,
    refusal_reason,
    resources,
    running_flavor,
)


@dataclass(frozen=True)
class ValidityRow:
    family: str
    key: str
    flavor: str
    resources: Resources | NvidiaResources | None
    problem: str = ""
    reason: str = ""  # refusal_reason of the resources ("" when shippable or not measured)
    refuse: bool = False  # a refusal config (measured because only the refusal table refuses it)


def _lower(family, config, flavor):
    return emit_python(family, config, (flavor,), resource_table=False)


def _measure(family: Family, configs: list[ConfigLine], flavor: str, jobs: int,
             progress: Progress) -> list[ValidityRow]:
    """The family's rows; each config advances `progress` once (when it is refused or measured, with
    its kernel's IR lines).
    The compile children parse and verify each module before compiling it (a verify error is the
    row's problem), `jobs` of them at once; progress.phase_seconds gets the wall time of the
    lowering (rocke's engine), of LLVM (verify and compile) and of reading the assembly (rocke)."""
    rows: list[ValidityRow] = []
    start = time.perf_counter()
    outs = parallel_map(_lower, [(family, c, flavor) for c in configs], jobs)
    progress.add_phase(LOWER_PHASE, time.perf_counter() - start)
    jobs_ok = []
    for config, out in zip(configs, outs, strict=True):
        if out.status != "built":
            progress.advance()
            if not config.refuse:  # a refusal config its builder refuses is no concern of this gate
                rows.append(ValidityRow(family.name, config.key, flavor, None,
                                        f"not built: {out.refusal or out.crash}"))
            continue
        jobs_ok.append((config, CompileJob(out.ll[flavor], config.arch, label=config.key), out.ir_lines))
    llvm = reading = 0.0
    mark = time.perf_counter()
    for (config, _job, ir_lines), result in zip(jobs_ok, compile_many([j for _, j, _ in jobs_ok], flavor,
                                                                      children=jobs), strict=True):
        got = time.perf_counter()
        llvm += got - mark
        progress.advance(ir_lines=ir_lines)
        if isinstance(result.error, LLVMVerifyError):
            rows.append(ValidityRow(family.name, config.key, flavor, None, f"verify: {result.error}",
                                    refuse=config.refuse))
        elif not result.ok:
            rows.append(ValidityRow(family.name, config.key, flavor, None, f"compile: {result.error}",
                                    refuse=config.refuse))
        elif codegen_target(config.arch).toolchain == "ptxas":
            rows.append(_ptxas_row(family, config, flavor, str(result.value)))
        else:
            res = resources(result.value, config.arch)
            reason, problem = config_problem(config, res)
            problem = problem or descriptor_problem(result.value, res)
            rows.append(ValidityRow(family.name, config.key, flavor, res, problem, reason, config.refuse))
        mark = time.perf_counter()
        reading += mark - got
    progress.add_phase(LLVM_PHASE, llvm)
    progress.add_phase(READ_PHASE, reading)
    return rows


def _ptxas_row(family: Family, config: ConfigLine, flavor: str, ptx: str) -> ValidityRow:
    """An NVIDIA config's row: ptxas assembles the PTX LLVM wrote and reports its resources."""
    try:
        res = kernel_resources(ptx, codegen_target(config.arch).cpu, arch=config.arch)
    except ToolchainError as exc:
        return ValidityRow(family.name, config.key, flavor, None, f"ptxas: {exc}", refuse=config.refuse)
    reason, problem = config_problem(config, res)
    if reason and config.refuse:
        # The refusal tables hold the AMD backend's figures; an NVIDIA kernel that cannot ship is
        # refused by its builder's rules (a config the family refuses before any LLVM sees it).
        problem = (f"{reason}: {_figures(res)} (an sm_90 config that cannot ship must be refused by the "
                   "family's rules; refusal tables hold AMD figures)")
    return ValidityRow(family.name, config.key, flavor, res, problem, "" if problem else reason, config.refuse)


def measure_configs(family: Family, configs: list[ConfigLine], *, jobs: int = 1) -> list[ValidityRow]:
    """The gate's measurement, at the running LLVM's flavor, of config lines no config file lists
    (e.g. the specs a planner picks for problems): one row each; a row with a problem could not ship."""
    return _measure(family, configs, running_flavor(), jobs, Progress("validity", len(configs), quiet=True))


def config_problem(config: ConfigLine, res: Resources | NvidiaResources) -> tuple[str, str]:
    """(refusal reason or "", the gate's problem or ""): a must-build config must be shippable."""
    reason = refusal_reason(res) or ""
    if not reason or config.refuse:
        return reason, ""
    return reason, (f"{reason}: {_figures(res)} (a shipped config must be shippable: mark it 'refuse' "
                    f"and run rocke check validity --write-refusals)")


_DIRECTIVE = r"^\s*\{}\s+([0-9]+)\s*$"


def _directive(asm_text: str, name: str) -> int | None:
    found = re.findall(_DIRECTIVE.format(name), asm_text, flags=re.MULTILINE)
    return int(found[0]) if len(found) == 1 else None


def descriptor_problem(asm_text: str, res: Resources) -> str:
    """"" when res states the registers the kernel descriptor reserves and its occupancy is the one
    those registers allow (rocke.arch.occupancy of .amdhsa_next_free_vgpr split at
    .amdhsa_accum_offset, and the reserved SGPRs), never above the counted registers' occupancy."""
    next_vgpr = _directive(asm_text, ".amdhsa_next_free_vgpr")
    accum = _directive(asm_text, ".amdhsa_accum_offset")
    if next_vgpr is None:
        return "descriptor: no single .amdhsa_next_free_vgpr in the assembly"
    if res.reserved_vgprs != next_vgpr:
        return f"descriptor: reserves {next_vgpr} VGPRs, resources say {res.reserved_vgprs}"
    target = get_arch(res.arch)
    split = (accum, next_vgpr - accum) if target.unified_vgpr_file and accum and next_vgpr > accum else (next_vgpr, 0)
    want = occupancy(target, vgprs=split[0], agprs=split[1], sgprs=res.reserved_sgprs, lds_bytes=res.lds_bytes,
                     workgroup_size=res.workgroup_size)
    if res.occupancy != want:
        return f"descriptor: occupancy {res.occupancy}, the reserved registers allow {want}"
    if res.occupancy > res.counted_occupancy:
        return f"descriptor: occupancy {res.occupancy} above the counted registers' {res.counted_occupancy}"
    return ""


def _figures(res: Resources | NvidiaResources) -> str:
    if isinstance(res, NvidiaResources):
        return " ".join(f"{name}={value}" for name, value in res.to_dict().items() if name not in ("kernel", "arch"))
    return " ".join(f"{name}={value}" for name, value in Measured.of("", "", res).figures)


def table_problems(family: Family, table: RefusalTable, configs: list[ConfigLine], measured: list[ValidityRow],
                   flavor: str, *, complete: bool) -> list[str]:
    """What is wrong between the family's table, its config file and the running flavor's measurement.

    ``complete``: every config was measured (no shard), so rows of unmeasured configs are drift too.
    """
    problems = []
    by_key = {(c.arch, spec_digest(family.name, c.kv)): c for c in configs}
    for row in table.rows:
        config = by_key.get((row.arch, row.digest))
        if config is None:
            problems.append(f"table row [{row.arch} {row.kv}] has no refusal config in {family.name}.cfg")
        elif not config.refuse:
            problems.append(f"table row [{row.arch} {row.kv}] is a must-build config in {family.name}.cfg "
                            f"(mark it 'refuse')")
    fresh = fresh_rows(family, table, measured, flavor)
    seen = {(c.arch, spec_digest(family.name, c.kv)) for c in configs
            if any(r.key == c.key and r.resources is not None for r in measured)}
    old = {(row.arch, row.digest): _flavor_part(row, flavor) for row in table.rows}
    new = {key: _flavor_part(row, flavor) for key, row in fresh.items()}
    for key in sorted(set(old) | set(new)):
        if key not in seen and not complete:
            continue
        before, after = old.get(key), new.get(key)
        if before != after:
            kv = (fresh.get(key) or table.find(*key)).kv  # type: ignore[union-attr]
            problems.append(f"{table_name(family.name)} drifts at {flavor} for [{key[0]} {kv}]: "
                            f"table {_describe(before)}, measured {_describe(after)} "
                            f"(run rocke check validity --write-refusals)")
    return problems


def _flavor_part(row: RefusalRow, flavor: str) -> Measured | None:
    return next((m for m in row.measured if m.flavor == flavor), None)


def _describe(m: Measured | None) -> str:
    if m is None:
        return "nothing"
    return f"{m.reason} ({' '.join(f'{n}={v}' for n, v in m.figures)})"


def fresh_rows(family: Family, table: RefusalTable, measured: list[ValidityRow],
               flavor: str) -> dict[tuple[str, str], RefusalRow]:
    """The table's rows with the running flavor's part replaced by this measurement."""
    rows: dict[tuple[str, str], dict[str, Measured]] = {}
    kvs: dict[tuple[str, str], str] = {}
    for row in table.rows:
        others = {m.flavor: m for m in row.measured if m.flavor != flavor}
        if others:
            rows[(row.arch, row.digest)] = others
            kvs[(row.arch, row.digest)] = row.kv
    for r in measured:
        if r.resources is None or not r.reason:
            continue
        arch, kv = _split_key(r.key)
        key = (arch, spec_digest(family.name, kv))
        rows.setdefault(key, {})[flavor] = Measured.of(flavor, r.reason, r.resources)
        kvs[key] = kv
    return {key: RefusalRow(key[0], key[1], kvs[key], tuple(parts[f] for f in sorted(parts)))
            for key, parts in rows.items()}


def _split_key(key: str) -> tuple[str, str]:
    words = key.split(" ", 2) if key.startswith("refuse ") else ["", *key.split(" ", 1)]
    return words[1], words[2]


def source_table_path(family: Family, root: Path) -> Path:
    """The family's table in a source checkout: <root>/<package dir>/src/<folder package path>/<table>."""
    package_path = folder_package(family).replace(".", "/")
    matches = sorted(p for p in root.glob(f"*/src/{package_path}") if p.is_dir())
    if len(matches) != 1:
        raise FileNotFoundError(f"cannot find the source of package {folder_package(family)} under {root} "
                                f"(found {len(matches)}); run from the repository root or pass --root")
    return matches[0] / table_name(family.name)


def _read_table(family: Family, root: Path | None) -> tuple[RefusalTable, list[str]]:
    if root is None:
        path = table_path(family)
        if path is None or not path.is_file():
            return RefusalTable(family.name, ()), [f"{family.name}: no {table_name(family.name)} "
                                                   f"(run rocke check validity --write-refusals)"]
        return family_table(family), []
    path = source_table_path(family, root)
    if not path.is_file():
        return RefusalTable(family.name, ()), [f"{family.name}: no {path}"]
    try:
        return parse_table(path.read_text(encoding="ascii"), family.name, path.name), []
    except ValueError as exc:
        return RefusalTable(family.name, ()), [f"{family.name}: {exc}"]


def run_validity(only: list[str] | None = None, *, jobs: int = 1, shard: Shard | None = None,
                 quiet: bool = False, write_refusals: bool = False, root: Path | None = None,
                 ) -> tuple[list[ValidityRow], list[str], Progress]:
    """Measure every family's configs at the running LLVM; returns the rows, the table problems
    (drift, rows without a config) and the progress. ``write_refusals`` rewrites the tables under
    ``root`` (default: the current directory) instead of reporting their drift."""
    flavor = running_flavor()
    if flavor is None:
        raise RuntimeError("the running llvmlite bundles an LLVM no flavor validates")
    if write_refusals and shard is not None:
        raise ValueError("--write-refusals measures every config: it cannot run on a shard")
    if write_refusals and root is None:
        root = Path.cwd()
    families = select_families(only)
    pairs = sharded_configs(families, shard)
    rows: list[ValidityRow] = []
    problems: list[str] = []
    with Progress(f"validity {flavor}", len(pairs), quiet=quiet, jobs=jobs) as progress:
        for family in families:
            mine = [c for f, c in pairs if f.name == family.name]
            progress.start_family(family.name, len(mine))
            measured = _measure(family, mine, flavor, jobs, progress)
            rows += measured
            problems += _family_table(family, measured, flavor, complete=shard is None,
                                      write_refusals=write_refusals, root=root)
            progress.family_done()
    return rows, problems, progress


def _family_table(family: Family, measured: list[ValidityRow], flavor: str, *, complete: bool,
                  write_refusals: bool, root: Path | None) -> list[str]:
    """The family's table problems against its measured rows; with write_refusals, the table under
    root is rewritten first (and only the rewritten table's problems remain)."""
    problems: list[str] = []
    all_configs = [c for f, c in sharded_configs([family], None)]
    table, read_problems = _read_table(family, root)
    if write_refusals:
        assert root is not None
        fresh = make_table(family.name, fresh_rows(family, table, measured, flavor))
        _write(source_table_path(family, root), render_table(fresh))
        table = fresh
    else:
        problems += read_problems
    problems += [f"{family.name}: {p}" for p in table_problems(
        family, table, all_configs, measured, flavor, complete=complete)]
    return problems


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="ascii", newline="\n") as handle:
        handle.write(text)
    os.replace(tmp, path)


def format_rows(rows: list[ValidityRow]) -> str:
    lines = []
    by_family: dict[str, list[ValidityRow]] = {}
    for row in rows:
        by_family.setdefault(row.family, []).append(row)
    for name in sorted(by_family):
        mine = by_family[name]
        occ = sorted(r.resources.occupancy for r in mine if r.resources and not r.refuse)
        bad = [r for r in mine if r.problem]
        refused = [r for r in mine if r.refuse and r.reason]
        span = f"occupancy min/median/max {occ[0]}/{occ[len(occ) // 2]}/{occ[-1]}" if occ else "no kernels"
        regs = sorted(r.resources.registers for r in mine
                      if isinstance(r.resources, NvidiaResources) and not r.refuse)
        if regs:
            span += f", ptxas registers min/median/max {regs[0]}/{regs[len(regs) // 2]}/{regs[-1]}"
        lines.append(f"{name:<24} {len(mine) - len(refused)} configs, {len(bad)} problems, {span}, "
                     f"{len(refused)} resource refusals")
        lines += [f"  [{r.key}] {r.problem}" for r in bad]
        lines += [f"  refused [{r.key}] {r.reason}" for r in refused]
    return "\n".join(lines)
