"""Code-object catalog (platform/docs/gates.md): code objects a C++ host or dispatcher serves a plan
from, indexed by spec digest in `catalog.json` (`rocke.catalog/2`).

    DIR/catalog.json                      the index (sorted keys, LF; no timestamps: deterministic)
    DIR/<arch>/<family>/<kernel>.hsaco    one code object per spec and arch

Per arch it holds every shipped config of the selected families (unless `shipped` is off) and the
launches dispatch plans for a problem corpus (`--problems FILE`: one problem a line, `KIND --problem
'k=v ...' --arch A` as `rocke plan` takes them; read_problems, plan_problems), each spec once.
`entries[arch][spec digest]` (Spec.digest: sha256 of `family:kv`) holds the family, the spec's kv,
the kernel symbol, the HSACO file and its sha256, the resources the real LLVM reports and the
launch template; `problems` lists the corpus' problems with the spec digests of their plans'
launches. A host plans a problem (in either engine) and finds each launch's code object by the
spec digest of its family and spec: read_catalog and Catalog.find here, rocke/gates/catalog.hpp in
C++ (same checks, same messages). Refused configs (`refuse` lines) are not shipped and have no
entry. An arch whose code objects cannot be linked here (an NVIDIA arch: the catalog holds HSACO)
is skipped, with its reason in `skipped`. Building twice gives identical bytes; `verify` re-hashes
every file and reports a tampered, missing, unlisted or misfiled one.
"""

from __future__ import annotations

import hashlib
import json
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from rocke import __version__
from rocke.arch import ARCH_NAMES
from rocke.families import Family, build_family, get_family
from rocke.families.configs import ConfigLine, family_configs
from rocke.families.launch import launch_template
from rocke.families.planners import Planner, discover_planners, get_planner
from rocke.families.refusals import spec_digest
from rocke.gates.artifacts import hsaco_skip_reason, write_atomically
from rocke.gates.progress import Progress
from rocke.gates.runner import parallel_map, select_families
from rocke.isa import CompileJob, codegen_target, compile_many, link_hsaco, resources, running_flavor
from rocke.lower import lower

FORMAT = "rocke.catalog/2"
INDEX = "catalog.json"
# A family's configs compile in chunks (one compiler child each) of about CHUNK_CONFIGS configs, at
# most MAX_CHUNKS_PER_JOB chunks per job: the progress moves a chunk at a time.
CHUNK_CONFIGS = 16
MAX_CHUNKS_PER_JOB = 4
# A problem corpus: one problem a line, as `rocke plan` takes it; `#` starts a comment.
PROBLEM_LINE = "KIND --problem 'k=v ...' --arch A"
MAX_CORPUS_BYTES = 1 << 20
MAX_CORPUS_PROBLEMS = 10_000


class CatalogError(RuntimeError):
    """The catalog cannot be built (no ld.lld, no validated LLVM, a config LLVM rejects, a refused problem)."""


# --- the problem corpus ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CorpusProblem:
    """One line of a problem corpus: a problem as `rocke plan KIND --problem TEXT --arch ARCH` takes it."""

    where: str  # "FILE:LINE"
    kind: str
    problem: str
    arch: str


@dataclass(frozen=True)
class PlannedProblem:
    """A corpus problem and its plan: the kind the planner serves, the canonical problem text, the
    status and the launches as (family, spec kv) in launch order."""

    where: str
    kind: str
    arch: str
    problem: str
    status: str
    launches: tuple[tuple[str, str], ...]


def parse_problem_line(text: str, where: str) -> CorpusProblem | None:
    """A corpus line's problem (None for a blank or comment line); ValueError naming where and what."""
    try:
        words = shlex.split(text, comments=True)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc} (a line is {PROBLEM_LINE})") from None
    if not words:
        return None
    kind: str | None = None
    options: dict[str, str] = {}
    i = 0
    while i < len(words):
        word = words[i]
        name, eq, value = word.partition("=")
        if name in ("--problem", "--arch"):
            if not eq:
                if i + 1 >= len(words):
                    raise ValueError(f"{where}: {name} needs a value (a line is {PROBLEM_LINE})")
                i += 1
                value = words[i]
            if name in options:
                raise ValueError(f"{where}: {name} given twice")
            options[name] = value
        elif word.startswith("-"):
            raise ValueError(f"{where}: unknown option '{word}' (a line is {PROBLEM_LINE})")
        elif kind is not None:
            raise ValueError(f"{where}: unexpected word '{word}' after the kind '{kind}' (a line is {PROBLEM_LINE})")
        else:
            kind = word
        i += 1
    if kind is None:
        raise ValueError(f"{where}: no problem kind (a line is {PROBLEM_LINE})")
    for name in ("--problem", "--arch"):
        if name not in options:
            raise ValueError(f"{where}: {name} is missing (a line is {PROBLEM_LINE})")
    if options["--arch"] not in ARCH_NAMES:
        raise ValueError(f"{where}: --arch '{options['--arch']}' is not one of {', '.join(ARCH_NAMES)}")
    return CorpusProblem(where, kind, options["--problem"], options["--arch"])


def read_problems(path: Path) -> list[CorpusProblem]:
    """The problems of a corpus file, in order; ValueError naming the file (and line) otherwise."""
    if not path.is_file():
        raise ValueError(f"{path}: {'not a file' if path.exists() else 'no such file'}")
    if path.stat().st_size > MAX_CORPUS_BYTES:
        raise ValueError(f"{path}: larger than {MAX_CORPUS_BYTES} bytes")
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    problems = []
    for number, line in enumerate(text.splitlines(), start=1):
        problem = parse_problem_line(line, f"{path}:{number}")
        if problem is not None:
            problems.append(problem)
    if not problems:
        raise ValueError(f"{path}: no problem (one a line: {PROBLEM_LINE})")
    if len(problems) > MAX_CORPUS_PROBLEMS:
        raise ValueError(f"{path}: more than {MAX_CORPUS_PROBLEMS} problems")
    return problems


def plan_problems(corpus: Sequence[CorpusProblem], planners: dict[str, Planner] | None = None) -> list[PlannedProblem]:
    """Plan every corpus problem with its kind's planner (the rocke.planners entry points, as `rocke
    plan`): ValueError naming the line for an unknown kind or a malformed problem, CatalogError
    listing every refused problem (the catalog could not serve it)."""
    planners = discover_planners() if planners is None else planners
    planned, refused = [], []
    for item in corpus:
        try:
            planner = get_planner(item.kind, planners)
            plan_json, _, status = planner.plan(item.problem, item.arch)
        except KeyError as exc:
            raise ValueError(f"{item.where}: {exc.args[0] if exc.args else exc}") from None
        except ValueError as exc:
            raise ValueError(f"{item.where}: {exc}") from None
        plan = json.loads(plan_json)
        if status == "refused":
            codes = "; ".join(f"{r['family'] or plan['kind']}: {', '.join(c['code'] for c in r['reasons'])}"
                              for r in plan["rejected"])
            refused.append(f"{item.where}: {plan['kind']} on {item.arch} is refused ({codes})")
            continue
        launches = tuple((launch["family"], launch["spec"]) for launch in plan["launches"])
        planned.append(PlannedProblem(item.where, plan["kind"], item.arch, plan["problem"], status, launches))
    if refused:
        raise CatalogError(f"{len(refused)} problem(s) refused: " + "; ".join(refused))
    return planned


def skip_reason(arch: str, flavor: str | None) -> str | None:
    """Why no code object of arch can be built here (None when it can): the catalog holds HSACO,
    which the running LLVM compiles and ld.lld links for the AMD archs."""
    target = codegen_target(arch)
    if target.vendor != "amd":
        return f"{arch} is an NVIDIA arch; the catalog holds AMD code objects (HSACO) only"
    if flavor is None:
        return "the running llvmlite bundles no LLVM flavor rocke knows"
    return hsaco_skip_reason(flavor)


# --- building -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Work:
    family: Family
    kv: str  # the spec's canonical kv
    digest: str
    label: str  # the config line's key or the corpus line, for messages


@dataclass(frozen=True)
class _Built:
    work: _Work
    kernel: str
    ll: str
    template: dict[str, Any]


def _build(work: _Work, arch: str, flavor: str) -> _Built:
    spec = work.family.spec.from_kv(work.kv)
    kernel = build_family(work.family, spec, arch)
    return _Built(work, kernel.name, lower(kernel, arch=arch, flavor=flavor),
                  launch_template(kernel, family=work.family.name, spec=work.kv, arch=arch))


def _compile_chunk(lls: list[str], arch: str, flavor: str) -> list[tuple[str, bytes] | str]:
    """(asm, hsaco) per .ll, or the error text; one compiler child per chunk."""
    jobs = [CompileJob(ll, arch, output) for ll in lls for output in ("asm", "obj")]
    results = list(compile_many(jobs, flavor))
    out: list[tuple[str, bytes] | str] = []
    for asm, obj in zip(results[0::2], results[1::2], strict=True):
        if asm.error is not None or obj.error is not None:
            out.append(str(asm.error or obj.error))
            continue
        try:
            out.append((asm.value, link_hsaco(obj.value)))
        except Exception as exc:  # reported per config, never half a catalog
            out.append(f"{type(exc).__name__}: {exc}")
    return out


def shipped_configs(family: Family, arch: str) -> list[ConfigLine]:
    return [c for c in family_configs(family) if c.arch == arch and not c.refuse]


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def render(index: dict[str, Any]) -> str:
    return json.dumps(index, indent=1, sort_keys=True) + "\n"


def _family_entries(family: Family, work: list[_Work], arch: str, flavor: str, out: Path, jobs: int,
                    progress: Progress, problems: list[str]) -> dict[str, dict[str, Any]]:
    """The index entries (by spec digest) of one family's specs on arch, their HSACO written under
    out/<arch>/<family>; a spec that fails is appended to problems."""
    built = [_build(item, arch, flavor) for item in work]
    workers = max(1, jobs)
    count = max(1, min(workers * MAX_CHUNKS_PER_JOB, -(-len(built) // CHUNK_CONFIGS)))
    chunks = [[b.ll for b in built[i::count]] for i in range(count)]
    chunk_results = parallel_map(_compile_chunk, [(chunk, arch, flavor) for chunk in chunks if chunk], jobs,
                                 on_result=lambda result: progress.advance(len(result)))
    results: list[tuple[str, bytes] | str] = [None] * len(built)  # type: ignore[list-item]
    for i, chunk_result in enumerate(chunk_results):
        results[i::count] = chunk_result
    folder = out / arch / family.name
    folder.mkdir(parents=True, exist_ok=True)
    entries = {}
    for item, result in zip(built, results, strict=True):
        if isinstance(result, str):
            problems.append(f"{family.name} on {arch} [{item.work.label}]: {result}")
            continue
        asm, hsaco = result
        path = folder / f"{item.kernel}.hsaco"
        write_atomically(path, hsaco)
        entries[item.work.digest] = {
            "family": family.name,
            "hsaco": path.relative_to(out).as_posix(),
            "hsaco_sha256": hashlib.sha256(hsaco).hexdigest(),
            "kernel": item.kernel,
            "launch": item.template,
            "resources": resources(asm, arch, kernel=item.kernel).to_dict(),
            "spec": item.work.kv,
        }
    return entries


def _work(families: Sequence[Family], arch: str, problems: Sequence[PlannedProblem]) -> dict[str, list[_Work]]:
    """Per family (shipped families first, in order, then the problems' families as their launches
    come), the specs to build for arch: shipped configs in config-file order, then the problems'
    launches; each spec once."""
    work: dict[str, list[_Work]] = {family.name: [] for family in families}
    seen: set[str] = set()

    def add(family: Family, kv: str, label: str) -> None:
        spec = family.spec.from_kv(kv)
        digest = spec.digest()
        if digest not in seen:
            seen.add(digest)
            work.setdefault(family.name, []).append(_Work(family, spec.to_kv(), digest, label))

    for family in families:
        for config in shipped_configs(family, arch):
            add(family, config.kv, config.key)
    for problem in problems:
        if problem.arch == arch:
            for name, kv in problem.launches:
                add(get_family(name), kv, f"{problem.where} {problem.kind}")
    return work


def build_catalog(only: list[str] | None, *, arch: str | None = None, archs: Sequence[str] = (), out: Path,
                  jobs: int = 1, quiet: bool = False, problems: Sequence[PlannedProblem] = (),
                  shipped: bool = True) -> tuple[dict[str, Any], Progress]:
    """Compile, for each arch (`arch`, `archs` and the problems' archs, in that order), the shipped
    configs of the selected families (unless not `shipped`) and the planned problems' launches into
    out; returns the index. Archs whose code objects cannot be built here are skipped (the index's
    `skipped`); CatalogError when none can be built or a spec fails."""
    wanted = list(dict.fromkeys([*([arch] if arch else []), *archs, *(p.arch for p in problems)]))
    if not wanted:
        raise CatalogError("no arch: give an arch or problems")
    flavor = running_flavor()
    skipped = {a: reason for a in wanted if (reason := skip_reason(a, flavor)) is not None}
    built_archs = [a for a in wanted if a not in skipped]
    if not built_archs or flavor is None:
        raise CatalogError("cannot build code objects here: " + "; ".join(f"{a}: {r}" for a, r in skipped.items()))
    families = select_families(only) if shipped else []
    if shipped and not families:
        raise CatalogError("no families selected")
    work = {a: _work(families, a, problems) for a in built_archs}
    out.mkdir(parents=True, exist_ok=True)
    entries: dict[str, dict[str, Any]] = {}
    failed: list[str] = []
    total = sum(len(items) for per_arch in work.values() for items in per_arch.values())
    with Progress("catalog", total, quiet=quiet, jobs=jobs) as progress:
        for a, per_arch in work.items():
            entries[a] = {}
            for name, items in per_arch.items():
                if not items:
                    continue
                progress.start_family(name, len(items))
                entries[a].update(_family_entries(items[0].family, items, a, flavor, out, jobs, progress, failed))
                progress.family_done()
    if failed:
        raise CatalogError("; ".join(failed))
    listed = {entry["hsaco"] for per_arch in entries.values() for entry in per_arch.values()}
    for a in built_archs:
        for stale in sorted((out / a).glob("*/*.hsaco")):
            if stale.relative_to(out).as_posix() not in listed:
                stale.unlink()
    served = [{"arch": p.arch, "kind": p.kind, "problem": p.problem, "status": p.status,
               "launches": [get_family(name).spec.from_kv(kv).digest() for name, kv in p.launches]}
              for p in problems if p.arch in entries]
    index = {"entries": entries, "families": sorted(f.name for f in families), "flavor": flavor, "format": FORMAT,
             "problems": served, "rocke_version": __version__, "skipped": skipped}
    write_atomically(out / INDEX, render(index).encode())
    return index, progress


# --- reading and verifying ------------------------------------------------------------------------

ENTRY_FIELDS = ("family", "hsaco", "hsaco_sha256", "kernel", "spec")


@dataclass(frozen=True)
class CatalogEntry:
    """What a host needs of one entry: the family and spec it was built from, the kernel symbol and
    the code object (relative to the catalog directory) with its sha256."""

    family: str
    spec: str
    kernel: str
    hsaco: str
    hsaco_sha256: str


@dataclass(frozen=True)
class Catalog:
    directory: Path
    flavor: str
    entries: Mapping[str, Mapping[str, CatalogEntry]]  # arch -> spec digest -> entry
    skipped: Mapping[str, str]  # arch -> why its code objects were not built

    def find(self, arch: str, spec_digest: str) -> CatalogEntry | None:
        """The entry of a spec digest on arch, or None."""
        return self.entries.get(arch, {}).get(spec_digest)

    def code_object(self, entry: CatalogEntry) -> Path:
        return self.directory / entry.hsaco


def inside(rel: str) -> bool:
    """A relative path that stays inside the catalog directory (no root, no '..', not empty)."""
    parts = PurePosixPath(rel).parts
    return bool(rel) and not rel.startswith("/") and "\\" not in rel and ".." not in parts


def read_catalog(directory: Path | str) -> Catalog:
    """The index of a catalog directory; ValueError naming the index and what is wrong with it.
    C++ twin: rocke::gates::catalog::read_catalog (the same checks, in the same order, with the same text)."""
    directory = Path(directory)
    path = directory / INDEX
    if not path.is_file():
        raise ValueError(f"{path}: no catalog index (rocke catalog build writes one)")
    try:
        data = path.read_bytes()
    except OSError:
        raise ValueError(f"{path}: cannot be read") from None
    try:
        index = json.loads(data)
    except ValueError:
        raise ValueError(f"{path}: not JSON") from None
    fmt = index.get("format") if isinstance(index, dict) else None
    if fmt != FORMAT:
        raise ValueError(f"{path}: not a {FORMAT} index (format {fmt!r}; rebuild it with rocke catalog build)")
    flavor = index.get("flavor")
    if not isinstance(flavor, str):
        raise ValueError(f"{path}: flavor is not a string")
    skipped = index.get("skipped", {})
    if not isinstance(skipped, dict) or not all(isinstance(v, str) for v in skipped.values()):
        raise ValueError(f"{path}: skipped is not an object of arch -> reason")
    raw = index.get("entries")
    if not isinstance(raw, dict) or not all(isinstance(v, dict) for v in raw.values()):
        raise ValueError(f"{path}: entries is not an object of arch -> spec digest -> entry")
    entries: dict[str, dict[str, CatalogEntry]] = {}
    for arch in sorted(raw):
        entries[arch] = {}
        for digest in sorted(raw[arch]):
            entry = raw[arch][digest]
            if not isinstance(entry, dict):
                raise ValueError(f"{path}: entry {arch} {digest} is not an object")
            for name in ENTRY_FIELDS:
                if not isinstance(entry.get(name), str):
                    raise ValueError(f"{path}: entry {arch} {digest}: {name} is not a string")
            if not inside(entry["hsaco"]):
                raise ValueError(f"{path}: entry {arch} {digest}: hsaco {entry['hsaco']} is not a path inside the "
                                 "catalog")
            entries[arch][digest] = CatalogEntry(*(entry[name] for name in ("family", "spec", "kernel", "hsaco",
                                                                            "hsaco_sha256")))
    return Catalog(directory, flavor, entries, dict(sorted(skipped.items())))


def verify_catalog(out: Path) -> tuple[list[str], int]:
    """Problems with a catalog directory (an unreadable index; tampered, missing, unlisted or
    misfiled code objects; an entry not keyed by its spec's digest; a problem launch without an
    entry) and its entry count."""
    try:
        catalog = read_catalog(out)
    except ValueError as exc:
        return [str(exc)], 0
    problems: list[str] = []
    listed = set()
    count = 0
    for arch, by_digest in catalog.entries.items():
        for digest, entry in by_digest.items():
            count += 1
            listed.add(entry.hsaco)
            actual = spec_digest(entry.family, entry.spec)
            if actual != digest:
                problems.append(f"misfiled {arch} {digest}: {entry.family} [{entry.spec}] has the spec digest {actual}")
            file = out / entry.hsaco
            if not file.is_file():
                problems.append(f"missing {entry.hsaco} ({entry.family} {entry.spec})")
            elif sha256_file(file) != entry.hsaco_sha256:
                problems.append(f"tampered {entry.hsaco}: sha256 {sha256_file(file)} != {entry.hsaco_sha256} in "
                                f"{INDEX}")
    index = json.loads((out / INDEX).read_bytes())
    for problem in index.get("problems", []) if isinstance(index.get("problems"), list) else []:
        arch = problem.get("arch") if isinstance(problem, dict) else None
        launches = problem.get("launches") if isinstance(problem, dict) else None
        if not isinstance(arch, str) or not isinstance(launches, list):
            problems.append(f"bad problem {problem!r} in {INDEX}")
            continue
        for i, digest in enumerate(launches):
            if not isinstance(digest, str) or catalog.find(arch, digest) is None:
                problems.append(f"problem {problem.get('kind')} [{problem.get('problem')}] on {arch}: launch {i} "
                                f"({digest}) has no entry")
    for file in sorted(out.rglob("*.hsaco")):
        rel = file.relative_to(out).as_posix()
        if rel not in listed:
            problems.append(f"unlisted {rel} (not in {INDEX})")
    return problems, count
