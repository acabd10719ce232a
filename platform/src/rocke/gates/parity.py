"""Parity gate: Python engine == C++ engine (bindings) == native emitter, byte for byte (docs/architecture.md §6).

Per family x config x flavor. Fails closed: a config passes only with a verdict in
PASSING; any other verdict (including one this module does not know) fails, and so
do a count mismatch, a truncated native stream, a crash, and a family whose every
config is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rocke.engine import first_difference
from rocke.families import Family
from rocke.families.configs import ConfigLine, family_configs
from rocke.gates.emitters import FLAVORS, Emission, emit_cpp, emit_native, emit_python, find_native_emitter
from rocke.gates.frames import FrameError
from rocke.gates.progress import Progress
from rocke.gates.runner import Shard, parallel_map, select_families, sharded_configs

PASSING = frozenset({"identical", "refused-identical"})


@dataclass(frozen=True)
class Verdict:
    family: str
    config: ConfigLine
    verdict: str
    detail: str = ""


@dataclass
class FamilyStatus:
    """One family's parity result. `outside_shard`: the shard holds none of its configs (its
    whole-file checks still ran); otherwise a family with no verdict fails."""

    name: str
    verdicts: list[Verdict] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    native: str = ""
    outside_shard: bool = False

    @property
    def ok(self) -> bool:
        if self.problems or not (self.verdicts or self.outside_shard):
            return False
        return all(v.verdict in PASSING for v in self.verdicts)


def judge(config: ConfigLine, outs: dict[str, Emission]) -> tuple[str, str]:
    """Verdict for one config from each engine's emission."""
    for engine, out in outs.items():
        if out.status == "crash":
            return "crash", f"{engine}: {out.crash}"
    statuses = {engine: out.status for engine, out in outs.items()}
    if len(set(statuses.values())) != 1:
        return "status-mismatch", ", ".join(f"{e} {s}" for e, s in statuses.items())
    reference = outs["python"]
    if reference.status == "refused":
        for engine, out in outs.items():
            if out.refusal != reference.refusal:
                return "refusal-mismatch", f"python: {reference.refusal!r} vs {engine}: {out.refusal!r}"
        if not config.refuse:
            return "unexpected-refusal", reference.refusal or ""
        return "refused-identical", ""
    if config.refuse:
        return "unexpected-build", "the config file says every engine must refuse it"
    for engine, out in outs.items():
        if out.ir != reference.ir:
            return "ir-mismatch", f"{engine}: {first_difference(reference.ir or '', out.ir or '')}"
        for flavor, text in reference.ll.items():
            if out.ll.get(flavor) != text:
                return f"ll-mismatch:{flavor}", f"{engine}: {first_difference(text, out.ll.get(flavor, ''))}"
    return "identical", ""


def _emit_both(family: Family, config: ConfigLine, flavors: tuple[str, ...]) -> tuple[Emission, Emission]:
    return emit_python(family, config, flavors), emit_cpp(family, config, flavors)


def run_parity(only: list[str] | None = None, *, flavors: tuple[str, ...] = FLAVORS, jobs: int = 1,
               shard: Shard | None = None, quiet: bool = False) -> tuple[list[FamilyStatus], Progress]:
    families = select_families(only)
    pairs = sharded_configs(families, shard)
    statuses: list[FamilyStatus] = []
    with Progress("parity", len(pairs), quiet=quiet, jobs=jobs) as progress:
        for family in families:
            statuses.append(_family_parity(family, pairs, flavors, jobs, shard, progress))
    return statuses, progress


def _family_parity(family: Family, pairs: list[tuple[Family, ConfigLine]], flavors: tuple[str, ...], jobs: int,
                   shard: Shard | None, progress: Progress) -> FamilyStatus:
    """One family's verdicts (its configs among `pairs`) and whole-file problems."""
    status = FamilyStatus(family.name)
    mine = [config for fam, config in pairs if fam.name == family.name]
    progress.start_family(family.name, len(mine))
    all_configs = family_configs(family)
    status.outside_shard = shard is not None and not mine
    if all(config.refuse for config in all_configs):
        # Judged on the whole config file, so every shard sees it.
        status.problems.append("every config is refused: the family builds nothing")
    try:
        status.native = str(find_native_emitter(family.native_emitter))
        native = emit_native(family, flavors)
        if len(native) != len(all_configs):
            status.problems.append(f"native emitter produced {len(native)} configs, "
                                   f"the config file has {len(all_configs)}")
    except (FrameError, OSError) as exc:
        status.problems.append(f"native emitter: {exc}")
        native = []
    ordinal = {config.lineno: i for i, config in enumerate(all_configs)}
    results = parallel_map(_emit_both, [(family, c, flavors) for c in mine], jobs,
                           on_result=lambda both: progress.advance(ir_lines=both[0].ir_lines))
    for config, (py, cpp) in zip(mine, results, strict=True):
        i = ordinal[config.lineno]
        nat = native[i] if i < len(native) else Emission(crash="no native record for this config")
        verdict, detail = judge(config, {"python": py, "cpp": cpp, "native": nat})
        status.verdicts.append(Verdict(family.name, config, verdict, detail))
    progress.family_done()
    return status


def format_report(statuses: list[FamilyStatus]) -> str:
    lines = []
    for status in statuses:
        counts: dict[str, int] = {}
        for v in status.verdicts:
            counts[v.verdict] = counts.get(v.verdict, 0) + 1
        summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "no configs"
        if status.outside_shard and not status.verdicts:
            summary = "no configs in this shard"
        lines.append(f"{status.name:<24} {'ok' if status.ok else 'FAILED':<7} {summary}")
        if status.native:
            lines.append(f"  native emitter: {status.native}")
        lines += [f"  problem: {p}" for p in status.problems]
        lines += [f"  line {v.config.lineno} [{v.config.key}]: {v.verdict}: {v.detail}"
                  for v in status.verdicts if v.verdict not in PASSING]
    return "\n".join(lines)
