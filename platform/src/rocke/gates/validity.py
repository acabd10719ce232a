"""Validity gate: every config of every family through the real LLVM (parse, verify, ISA, resources).

Only the flavor of the running LLVM can be checked in one environment (llvm22 in the
`validity` lane, llvm20 in `validity_llvm20`). A shipped config that spills
(scratch > 0) or exceeds the arch's LDS fails: such configs must be refusals.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from rocke.arch import get_arch
from rocke.gates.emitters import emit_python
from rocke.gates.runner import Progress, Shard, parallel_map, select_families, sharded_configs
from rocke.isa import CompileJob, Resources, compile_many, resources, running_flavor, verify_ll


@dataclass(frozen=True)
class ValidityRow:
    family: str
    key: str
    flavor: str
    resources: Resources | None
    problem: str = ""


def _lower(family, config, flavor):
    return emit_python(family, config, (flavor,))


def run_validity(only: list[str] | None = None, *, jobs: int = 1, shard: Shard | None = None,
                 quiet: bool = False) -> tuple[list[ValidityRow], Progress]:
    flavor = running_flavor()
    if flavor is None:
        raise RuntimeError("the running llvmlite bundles an LLVM no flavor validates")
    families = select_families(only)
    pairs = [(f, c) for f, c in sharded_configs(families, shard) if not c.refuse]
    progress = Progress(f"validity {flavor}", len(pairs), quiet=quiet)
    rows: list[ValidityRow] = []
    done = 0
    for family in families:
        start = time.perf_counter()
        mine = [c for f, c in pairs if f.name == family.name]
        outs = parallel_map(_lower, [(family, c, flavor) for c in mine], jobs)
        jobs_ok = []
        for config, out in zip(mine, outs, strict=True):
            if out.status != "built":
                rows.append(ValidityRow(family.name, config.key, flavor, None,
                                        f"not built: {out.refusal or out.crash}"))
                continue
            try:
                verify_ll(out.ll[flavor], flavor)
            except Exception as exc:
                rows.append(ValidityRow(family.name, config.key, flavor, None, f"verify: {exc}"))
                continue
            jobs_ok.append((config, CompileJob(out.ll[flavor], config.arch, label=config.key)))
        for (config, _job), result in zip(jobs_ok, compile_many([j for _, j in jobs_ok], flavor), strict=True):
            if not result.ok:
                rows.append(ValidityRow(family.name, config.key, flavor, None, f"compile: {result.error}"))
                continue
            res = resources(result.value, config.arch)
            problem = ""
            if res.scratch_bytes > 0:
                problem = f"spills: {res.scratch_bytes} scratch bytes (a shipped config must not spill)"
            elif res.lds_bytes > get_arch(config.arch).lds_bytes:
                problem = f"LDS {res.lds_bytes} B exceeds {config.arch}'s {get_arch(config.arch).lds_bytes} B"
            rows.append(ValidityRow(family.name, config.key, flavor, res, problem))
        done += len(mine)
        progress.family_done(family.name, time.perf_counter() - start, done)
    return rows, progress


def format_rows(rows: list[ValidityRow]) -> str:
    lines = []
    by_family: dict[str, list[ValidityRow]] = {}
    for row in rows:
        by_family.setdefault(row.family, []).append(row)
    for name in sorted(by_family):
        mine = by_family[name]
        occ = sorted(r.resources.occupancy for r in mine if r.resources)
        bad = [r for r in mine if r.problem]
        span = f"occupancy min/median/max {occ[0]}/{occ[len(occ) // 2]}/{occ[-1]}" if occ else "no kernels"
        lines.append(f"{name:<24} {len(mine)} configs, {len(bad)} problems, {span}")
        lines += [f"  [{r.key}] {r.problem}" for r in bad]
    return "\n".join(lines)
